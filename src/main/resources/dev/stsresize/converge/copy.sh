# stsresize-copy v1
# The copy pod's script (docs/design.md, "The copy pod"): copies the claim at $SRC onto the run's temporary claim at
# $DST with busybox's `cp -a`, then proves the copy by a manifest of each side. The first line above is how the
# simulated kubelet recognises it; every line meant for the plugin starts with "stsresize-copy: " and is read by
# CopyPodLog.verify, which trusts none of it without the pod's exit code 0.
#
# Written for busybox sh (the default image busybox:1.36.1) and plain POSIX sh: no bash, no GNU options.
# SRC and DST default to the pod's mounts; a test sets them to host folders.
set -eu

SRC=${SRC:-/src}
DST=${DST:-/dst}
# how often, in seconds, a progress line is printed while cp runs
PROGRESS_SECONDS=${PROGRESS_SECONDS:-10}

PREFIX='stsresize-copy: '
nl='
'
tab=$(printf '\t')
cr=$(printf '\r')
work=''
told=''

# The plugin's lines go to the script's own stdout (fd 3), also from a function whose output is redirected.
exec 3>&1 4>&2
say() {
  printf '%s%s\n' "$PREFIX" "$*" >&3
}

# One "error" line, then exit 1: the plugin shows the line; the pod ends Failed, so no proof is made of it.
fail() {
  say "error $*"
  told=1
  exit 1
}

# On every exit: the tools' own messages, each line indented (a file name with a newline in a tool's message must
# not start a line with the prefix), and an "error" line for a failure that set -e stopped without one.
finish() {
  status=$?
  set +e
  if [ -n "$work" ]; then
    [ -s "$work/stderr" ] && sed 's/^/  /' "$work/stderr" >&4
    rm -rf -- "$work"
  fi
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ] && [ -z "$told" ]; then
    say "error a command failed (exit status $status): the copy is not verified"
  fi
  exit "$status"
}
trap finish EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# A path as one manifest field: a backslash, newline, tab or carriage return in a name is escaped (\\ \n \t \r), so
# a name can neither forge a manifest line nor look like another name. Sets $escaped. The common name costs no fork.
escape() {
  case $1 in
    *"\\"* | *"$nl"* | *"$tab"* | *"$cr"*)
      # the trailing "/" keeps a name's trailing newlines from the command substitution
      escaped=$(printf '%s/' "$1" | awk '
        { out = ""
          for (i = 1; i <= length($0); i++) {
            c = substr($0, i, 1)
            if (c == "\\") c = "\\\\"; else if (c == "\t") c = "\\t"; else if (c == "\r") c = "\\r"
            out = out c
          }
          printf "%s%s", (NR > 1 ? "\\n" : ""), out }')
      escaped=${escaped%/}
      ;;
    *) escaped=$1 ;;
  esac
}

# The manifest lines of the entries at the paths given, fields separated by a tab:
#   path type uid:gid mode links size mtime sha256 target
# type: f regular, d directory, l symlink, p fifo, s socket, c/b device. Fields that do not apply, or that differ
# between file systems for the same tree, are "-": a directory's size and link count (btrfs counts 1, ext4 2 + its
# sub-folders), a symlink's mtime (busybox cp does not restore it). mtime is in seconds: busybox cp restores times
# with utime(), whole seconds. links is kept for every other entry: cp -a re-creates hard links within one run, so a
# link lost shows here. target: a symlink's target (escaped) or a device's major,minor.
# One stat for all the paths and one sha256sum for the regular files among them: a fork per file would cost more
# than the hashing of a tree of small files. stat prints no name, one line per path in order, so a name with a
# newline stays one entry; only names without a character to escape are hashed together (sha256sum prints names).
entries() {
  stat -c '%f %u:%g %a %h %s %Y %t,%T' -- "$@" >"$work/meta"
  : >"$work/waiting"
  # each line of meta is the first path of the list, shifted off; a regular file to hash together is appended to the
  # list's end, so once meta is read the list holds exactly those files, in the order of their lines in waiting
  while read -r hex owner mode links size mtime rdev; do
    path=$1
    shift
    escape "$path"
    sum=- target=-
    case $((0x$hex & 61440)) in
      32768)
        type=f
        if [ "$escaped" = "$path" ]; then
          printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n' "$escaped" "$type" "$owner" "$mode" "$links" "$size" "$mtime" >>"$work/waiting"
          set -- "$@" "$path"
          continue
        fi
        sum=$(sha256sum <"$path")
        sum=${sum%% *}
        ;;
      16384) type=d size=- links=- ;;
      40960)
        type=l size=- mtime=-
        target=$(readlink -- "$path" && echo /)
        target=${target%/}
        target=${target%"$nl"}
        path_escaped=$escaped
        escape "$target"
        target=$escaped
        escaped=$path_escaped
        ;;
      4096) type=p size=- ;;
      49152) type=s size=- ;;
      8192) type=c size=- target=$rdev ;;
      24576) type=b size=- target=$rdev ;;
      *) fail "an entry of an unknown file type (mode 0x$hex) in the tree" ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$escaped" "$type" "$owner" "$mode" "$links" "$size" "$mtime" "$sum" "$target"
  done <"$work/meta"
  if [ "$#" -gt 0 ]; then
    sha256sum -- "$@" >"$work/sums"
    awk -v sums="$work/sums" '{ if ((getline sum < sums) <= 0) exit 1; print $0 substr(sum, 1, 64) "\t-" }' "$work/waiting"
  fi
}

# The manifest lines of every entry under the folder $1, dot-files too, depth first, in batches of up to 200
# paths (a command line's length is bounded). The globs keep every name whole (spaces, newlines, a leading dash);
# each sub-folder is walked in a subshell, so $folder and the list stay its own.
walk() {
  folder=$1
  set --
  for name in "$folder"/* "$folder"/.[!.]* "$folder"/..?*; do
    if [ -e "$name" ] || [ -L "$name" ]; then
      set -- "$@" "$name"
      if [ "$#" -ge 200 ]; then
        entries "$@"
        set --
      fi
    fi
  done
  if [ "$#" -gt 0 ]; then
    entries "$@"
  fi
  for name in "$folder"/* "$folder"/.[!.]* "$folder"/..?*; do
    if [ -d "$name" ] && [ ! -L "$name" ]; then
      (walk "$name")
    fi
  done
}

# The manifest of the tree at $1 into the file $2, sorted by path, the root itself as "." (cp -a gives the
# destination's root the source's owner, mode and time: an application may need its data folder's mode).
manifest() {
  # separate commands, not an && list: set -e is off inside all but the last command of one
  (
    cd "$1"
    entries .
    walk .
  ) >"$2.unsorted"
  LC_ALL=C sort "$2.unsorted" >"$2"
  rm -f -- "$2.unsorted"
}

# "sha256=<hex> files=<n> bytes=<b>" of a manifest: files counts the entries below the root, bytes the sizes of
# the regular files (their length, not the blocks they take).
summary() {
  digest=$(sha256sum <"$1")
  awk -F "$tab" -v digest="${digest%% *}" '
    $1 != "." { files++ }
    $2 == "f" { bytes += $6 }
    END { printf "sha256=%s files=%d bytes=%.0f\n", digest, files, bytes }' "$1"
}

# Sets $files and $bytes of the tree at $1 as summary counts them, without reading the files: for the start and
# progress lines. stat prints no name, so a name with a newline still counts once.
measure() {
  find "$1" -mindepth 1 -exec stat -c '%s %F' -- {} + >"$work/measure"
  counts=$(awk '{ n++ } $2 ~ /^regular/ { b += $1 } END { printf "%d %.0f\n", n, b }' "$work/measure")
  files=${counts% *}
  bytes=${counts#* }
}

# "<fstype> size-kib=<n> used-kib=<n>" of the file system holding $1; the type as mounted (/proc/mounts), as the
# kernel names it (stat -f) where the mount is not listed, with any character CopyPodLog does not take made "_".
filesystem() {
  df -Pk "$1" >"$work/df"
  size=$(awk 'NR == 2 { print $2 }' "$work/df")
  used=$(awk 'NR == 2 { print $3 }' "$work/df")
  mounted=$(awk 'NR == 2 { print $NF }' "$work/df")
  fstype=$(awk -v m="$mounted" '$2 == m { t = $3 } END { print t }' /proc/mounts 2>/dev/null || true)
  [ -n "$fstype" ] || fstype=$(stat -f -c '%T' -- "$1")
  fstype=$(printf '%s' "$fstype" | tr -c 'A-Za-z0-9_.-' '_' | cut -c1-32)
  printf '%s size-kib=%s used-kib=%s\n' "${fstype:-unknown}" "$size" "$used"
}

# The first line where the two sorted manifests differ, as "<src line> | <dst line>" ("(none)" past an end), tabs
# shown as spaces: a human reads it; the plugin only stops.
first_difference() {
  awk -v other="$2" '
    { if ((getline theirs < other) <= 0) theirs = "(none)"
      if ($0 != theirs) { print $0 " | " theirs; found = 1; exit } }
    END { if (!found) { if ((getline theirs < other) > 0) print "(none) | " theirs; else print "(none) | (none)" } }' "$1" | tr '\t' ' '
}

[ "$(id -u)" = 0 ] || fail "runs as uid $(id -u), not 0: only root reads every file and keeps every owner"
[ -d "$SRC" ] || fail "the source $SRC is not a folder"
[ -d "$DST" ] || fail "the destination $DST is not a folder"
src_real=$(cd "$SRC" && pwd -P)
dst_real=$(cd "$DST" && pwd -P)
case "$dst_real/" in
  / | "$src_real"/*) fail "the destination $DST is / or inside the source $SRC" ;;
esac
case "$src_real/" in
  "$dst_real"/*) fail "the source $SRC is inside the destination $DST, which is emptied first" ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/stsresize-copy.XXXXXX") || fail "cannot make a work folder in ${TMPDIR:-/tmp}"
case "$work/" in
  "$src_real"/* | "$dst_real"/*) fail "the work folder $work is inside the source or the destination: set TMPDIR elsewhere" ;;
esac
# the tools' messages wait in a file and are shown indented at the end (finish), on the script's stderr (fd 4)
exec 2>"$work/stderr"

# The destination is always the run's own temporary claim, and a resumed run may copy onto it again: empty it first,
# dot-files and lost+found too (the source's lost+found is copied like any folder), never the folder itself.
find "$DST" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} + || fail "could not empty the destination $DST"
[ -z "$(find "$DST" -mindepth 1 -maxdepth 1)" ] || fail "the destination $DST is not empty after emptying it"

measure "$SRC"
say "start src-files=$files src-bytes=$bytes"

# cp runs in the background and this shell prints progress, measured on the destination, every PROGRESS_SECONDS:
# a tree of one big folder (a database's data folder) still shows it moving, and nothing but cp writes meanwhile.
# cp's exit status comes back through a file (renamed whole), which a finished background job needs no wait for.
(
  set +e
  cp -a -- "$SRC/." "$DST/"
  echo "$?" >"$work/cp.status.new"
  mv -f -- "$work/cp.status.new" "$work/cp.status"
) &
elapsed=0
while [ ! -e "$work/cp.status" ]; do
  sleep 1
  elapsed=$((elapsed + 1))
  if [ "$elapsed" -ge "$PROGRESS_SECONDS" ] && [ ! -e "$work/cp.status" ]; then
    elapsed=0
    if measure "$DST"; then say "progress files=$files bytes=$bytes"; fi
  fi
done
wait
read -r copied <"$work/cp.status"
[ "$copied" = 0 ] || fail "cp -a exited $copied: the copy is incomplete (its message is below)"
measure "$DST"
say "progress files=$files bytes=$bytes"

manifest "$SRC" "$work/src.manifest"
manifest "$DST" "$work/dst.manifest"
# each result in a variable first: a failure inside $(...) stops the script only as a plain assignment
src_summary=$(summary "$work/src.manifest")
dst_summary=$(summary "$work/dst.manifest")
say "manifest src $src_summary"
say "manifest dst $dst_summary"
destination_fs=$(filesystem "$DST")
say "filesystem $destination_fs"
if cmp -s "$work/src.manifest" "$work/dst.manifest"; then
  say "verified"
else
  difference=$(first_difference "$work/src.manifest" "$work/dst.manifest")
  say "differs $difference"
  exit 3
fi

#!/usr/bin/env bash
# Re-creates assets/ from real captures of the running program:
#   assets/list.png, assets/diff.png, assets/edit.png, assets/wizard.png  the UI in a COLS x ROWS tmux pane, captured
#       with `tmux capture-pane -e` (colours and attributes as the program drew them), turned into a
#       standalone HTML page by scripts/ansi2html.py and photographed by headless Chromium;
#   assets/session.cast  an asciinema (asciicast v2) recording of a session, keys driven by tmux.
#
# Usage, from anywhere in the repository, after `mvn -B -q package -DskipTests`:
#   scripts/capture-assets.sh
#   ONLY="wizard" scripts/capture-assets.sh          # only some of: list diff edit wizard cast
# Installs chromium and asciinema with apt-get when they are missing (needs root or sudo).
set -euo pipefail

# ---------------------------------------------------------------------------------------------------
# What runs and which keys make each picture. Edit here, or override from the environment.
#
# Each command runs in $DEMO_FILES, a folder holding the demo scenario's manifest.yaml and live.yaml
# (written by `demo --dir` at the start of this script: one StatefulSet per case the plugin handles).
# $LAUNCHER is the built launcher, target/kubectl-stsresize. Single quotes keep them for later.
#
# The UI runs on `demo`'s simulated cluster (fast controllers), so the wizard is the real one: the
# grow gate (y), the typed name before the orphan delete, and the summary verified from the objects.
# For the offline UI over the snapshot instead: STSRESIZE_CMD='"$LAUNCHER" ui -f manifest.yaml --live live.yaml -A'
# shellcheck disable=SC2016 # $LAUNCHER expands where the command runs
STSRESIZE_CMD=${STSRESIZE_CMD-'"$LAUNCHER" demo --speed fast'}

# Key scripts are shell words, sent to a freshly started program for each picture:
#   j, Enter, Escape, C-c, …  a tmux key name (tmux send-keys), sent as is
#   type:TEXT                 TEXT typed literally (quote it if it has spaces: 'type:a b')
#   wait:TEXT                 wait (up to WAIT_SECONDS) until the screen shows TEXT
#   sleep:SECONDS             pause
# After the last word, the screen is captured once it has stopped changing.
# Rows (sorted by namespace/name): analytics/clickhouse, analytics/kafka, legacy/etcd, legacy/mysql,
# payments/ledger (the 5th: 4 × j; 92 % full and filling), shop/elasticsearch, shop/minio, shop/postgres, shop/redis.
# 'sampled for' appears with the second usage read (20 s): FILLS IN is then known.
: "${LIST_KEYS:=wait:StatefulSets[9] 'wait:sampled for' j j j j}"
: "${DIFF_KEYS:=wait:StatefulSets[9] 'wait:sampled for' j j j j Enter 'wait:diff payments/ledger' 'wait:suggested data'}"
: "${EDIT_KEYS:=wait:StatefulSets[9] 'wait:sampled for' j j j j e 'wait:edit sizes' Enter 'wait:storage: 14Gi'}"
: "${WIZARD_KEYS:=wait:StatefulSets[9] 'wait:sampled for' j j j j e 'wait:edit sizes' Enter 'wait:storage: 14Gi' y 'wait:manifest written' Enter 'wait:Grow 3 claims' y 'wait:orphan-delete it:' type:ledger Enter 'wait:Converged'}"

# The recorded session: CAST_CMD (sh) runs under `asciinema rec`, in $DEMO_FILES too, with the built
# launcher first on PATH as kubectl-stsresize; `show CMD…` prints "$ CMD…" and runs it. CAST_KEYS
# drive it the same way; the recording ends when CAST_CMD exits.
CAST_CMD=${CAST_CMD-'show kubectl-stsresize demo --speed fast; sleep 2'}
: "${CAST_KEYS:=wait:StatefulSets[9] 'wait:sampled for' sleep:2 u 'wait:fullest first' sleep:3 Escape sleep:1 j sleep:0.5 j sleep:0.5 j sleep:0.5 j sleep:1.5 Enter 'wait:diff payments/ledger' sleep:3 e 'wait:edit sizes' sleep:2 Enter 'wait:storage: 14Gi' sleep:3 y 'wait:manifest written' sleep:3 Enter 'wait:Grow 3 claims' sleep:3 y 'wait:orphan-delete it:' sleep:2 type:ledger sleep:1 Enter 'wait:Converged' sleep:5 Escape sleep:2 q}"

: "${COLS:=120}"                  # terminal size of every capture
: "${ROWS:=34}"
: "${SCALE:=2}"                   # PNG pixels per CSS pixel (2: sharp on high-density screens)
: "${WAIT_SECONDS:=90}"           # how long a wait: word waits
: "${IDLE_LIMIT:=2}"              # the cast's idle_time_limit: longer pauses play as this many seconds
: "${ONLY:=list diff edit wizard cast}"
: "${OUT:=assets}"                # relative to the repository root
: "${KEEP_WORK:=0}"               # 1: keep the raw captures (*.ansi) and pages (*.html), say where
# ---------------------------------------------------------------------------------------------------

export LC_ALL=C.UTF-8  # tmux, python and chromium read and write UTF-8
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
LAUNCHER="$root/target/kubectl-stsresize"
export LAUNCHER
[ -x "$LAUNCHER" ] || { echo "capture-assets: $LAUNCHER is not built; run: mvn -B -q package -DskipTests" >&2; exit 1; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/capture-assets.XXXXXX")
sock="assets-capture-$$"
demo_pid=
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  if [ -n "$demo_pid" ]; then kill "$demo_pid" 2>/dev/null || true; fi
  if [ "$KEEP_WORK" = 1 ]; then echo "capture-assets: the captures and pages are in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
tm() { tmux -L "$sock" -f /dev/null "$@"; }

install_missing() { # COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "capture-assets: $1 is missing; installing Debian's $2" >&2
  local sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$2" >&2
}
install_missing tmux tmux
install_missing python3 python3
case " $ONLY " in *" list "*|*" diff "*|*" edit "*|*" wizard "*) install_missing chromium chromium ;; esac
case " $ONLY " in *" cast "*) install_missing asciinema asciinema ;; esac

# The demo scenario's files (the demo serves until stopped: stop it once they are written).
DEMO_FILES="$work/demo"
export DEMO_FILES
mkdir -p "$DEMO_FILES"
"$LAUNCHER" demo --dir "$DEMO_FILES" --speed fast >"$work/demo.log" 2>&1 &
demo_pid=$!
for _ in $(seq 1 300); do
  grep -q 'Serving until' "$work/demo.log" && break
  kill -0 "$demo_pid" 2>/dev/null || break
  sleep 0.2
done
kill "$demo_pid" 2>/dev/null || true
wait "$demo_pid" 2>/dev/null || true
demo_pid=
if [ ! -s "$DEMO_FILES/manifest.yaml" ] || [ ! -s "$DEMO_FILES/live.yaml" ]; then
  echo "capture-assets: demo --dir wrote no manifest.yaml/live.yaml:" >&2
  cat "$work/demo.log" >&2
  exit 1
fi

# The environment every captured program sees: a UTF-8, 256-colour terminal of COLS x ROWS.
cat >"$work/env.sh" <<EOF
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLORTERM=truecolor
export LAUNCHER='$LAUNCHER' DEMO_FILES='$DEMO_FILES' PATH='$root/target':"\$PATH"
unset NO_COLOR
cd "\$DEMO_FILES"
# show CMD…: print the command after a prompt, as a shell would, then run it
show() { printf '\$ %s\n' "\$*"; "\$@"; }
EOF
EXITED="[capture-assets: the program exited]"

pane() { tm capture-pane -p -t "$1"; }

# drive SESSION KEYS: sends the key script to the session's pane
drive() {
  local session=$1 word
  local -a words
  set -f  # a word such as ? is a key, not a file name pattern
  eval "words=($2)"
  set +f
  for word in "${words[@]}"; do
    case $word in
      wait:*) await "$session" "${word#wait:}" ;;
      type:*) tm send-keys -t "$session" -l "${word#type:}" ;;
      sleep:*) sleep "${word#sleep:}" ;;
      *) tm send-keys -t "$session" "$word" ;;
    esac
  done
}

await() { # SESSION TEXT
  local deadline=$((SECONDS + WAIT_SECONDS)) screen
  while [ "$SECONDS" -lt "$deadline" ]; do
    screen=$(pane "$1")
    case $screen in *"$2"*) return 0 ;; esac
    case $screen in *"$EXITED"*) break ;; esac
    sleep 0.1
  done
  echo "capture-assets: the screen never showed '$2'; it was:" >&2
  pane "$1" >&2
  exit 1
}

settle() { # SESSION: returns once two captures 0.4 s apart are the same
  local before now
  before=$(tm capture-pane -e -p -t "$1")
  for _ in $(seq 1 50); do
    sleep 0.4
    now=$(tm capture-pane -e -p -t "$1")
    [ "$now" = "$before" ] && return 0
    before=$now
  done
  echo "capture-assets: the screen kept changing; capturing it anyway" >&2
}

shoot() { # NAME KEYS
  local name=$1 size
  echo "capture-assets: $name.png" >&2
  printf '%s\n' ". '$work/env.sh'" "$STSRESIZE_CMD" "echo; echo '$EXITED'; sleep 600" >"$work/shot.sh"
  tm new-session -d -s assets-shot -x "$COLS" -y "$ROWS" "sh '$work/shot.sh'"
  drive assets-shot "$2"
  settle assets-shot
  if pane assets-shot | grep -qF "$EXITED"; then
    echo "capture-assets: the program exited before $name was captured:" >&2
    pane assets-shot >&2
    exit 1
  fi
  tm capture-pane -e -p -N -t assets-shot >"$work/$name.ansi"
  tm kill-session -t assets-shot
  size=$(python3 "$root/scripts/ansi2html.py" --cols "$COLS" --rows "$ROWS" --title "kubectl-stsresize: $name" \
    -o "$work/$name.html" --print-size "$work/$name.ansi")
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/chromium" \
    --force-device-scale-factor="$SCALE" --window-size="${size/x/,}" \
    --screenshot="$OUT/$name.png" "file://$work/$name.html" >"$work/chromium.log" 2>&1 \
    || { cat "$work/chromium.log" >&2; exit 1; }
  [ -s "$OUT/$name.png" ] || { echo "capture-assets: chromium wrote no $OUT/$name.png" >&2; cat "$work/chromium.log" >&2; exit 1; }
}

record() {
  echo "capture-assets: session.cast" >&2
  cat >"$work/cast.sh" <<EOF
. '$work/env.sh'
$CAST_CMD
EOF
  rm -f "$work/cast.rc"
  tm new-session -d -s assets-cast -x "$COLS" -y "$ROWS" \
    "export LANG=C.UTF-8 TERM=xterm-256color ASCIINEMA_CONFIG_HOME='$work/asciinema'; \
     asciinema rec --quiet --overwrite --cols $COLS --rows $ROWS --idle-time-limit $IDLE_LIMIT \
       --title 'kubectl-stsresize' -c 'sh $work/cast.sh' '$work/session.cast'; \
     echo \$? >'$work/cast.rc'; sleep 600"
  drive assets-cast "$CAST_KEYS"
  local deadline=$((SECONDS + 600))
  while [ ! -s "$work/cast.rc" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.5; done
  [ "$(cat "$work/cast.rc" 2>/dev/null)" = 0 ] || { echo "capture-assets: asciinema rec failed:" >&2; pane assets-cast >&2; exit 1; }
  tm kill-session -t assets-cast
  python3 - "$work/session.cast" <<'EOF'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = json.loads(lines[0])
assert head["version"] == 2 and head["width"] > 0 and head["height"] > 0, head
last = 0.0
for n, line in enumerate(lines[1:], 2):
    t, code, data = json.loads(line)
    assert t >= last and code in ("o", "i", "r", "m") and isinstance(data, str), (n, line)
    last = t
assert len(lines) > 10, "too few events"
print("capture-assets: session.cast: asciicast v2, %dx%d, %d events, %.1f s" % (head["width"], head["height"], len(lines) - 1, last), file=sys.stderr)
EOF
  # it plays: asciinema cat reads keys from /dev/tty, so it too runs in a pane
  tm new-session -d -s assets-play -x "$COLS" -y "$ROWS" \
    "asciinema cat '$work/session.cast' >'$work/cat.out' 2>&1; echo \$? >'$work/cat.rc'; sleep 600"
  deadline=$((SECONDS + 60))
  while [ ! -s "$work/cat.rc" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
  if [ "$(cat "$work/cat.rc" 2>/dev/null)" != 0 ] || ! grep -q 'kubectl-stsresize' "$work/cat.out"; then
    echo "capture-assets: asciinema cat did not play session.cast:" >&2
    tail -20 "$work/cat.out" >&2
    exit 1
  fi
  tm kill-session -t assets-play
  cp "$work/session.cast" "$OUT/session.cast"
}

for what in $ONLY; do
  case $what in
    list) shoot list "$LIST_KEYS" ;;
    diff) shoot diff "$DIFF_KEYS" ;;
    edit) shoot edit "$EDIT_KEYS" ;;
    wizard) shoot wizard "$WIZARD_KEYS" ;;
    cast) record ;;
    *) echo "capture-assets: ONLY knows list, diff, edit, wizard and cast, not '$what'" >&2; exit 2 ;;
  esac
done
echo "capture-assets: wrote $ONLY into $OUT" >&2

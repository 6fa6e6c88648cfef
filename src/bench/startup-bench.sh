#!/bin/sh
# Start-up benchmark: medians of wall time, CPU time (user+sys) and peak RSS per command, in ONE run,
# with `kubectl version --client` as the yardstick (the ratio column), so figures from a noisy shared
# machine stay comparable. Prints figures; never fails on a slow machine.
#
#   src/bench/startup-bench.sh [LAUNCHER] [RUNS]        (defaults: target/kubectl-stsresize, 7)
#
# Modes per command:
#   jvm-defaults  the JVM's defaults, no archive   (STSRESIZE_JAVA_OPTS=-Xshare:auto, STSRESIZE_CDS=0)
#   cold          the launcher's flags, no archive (STSRESIZE_CDS=0)
#   warm          the launcher's flags and the class-data archive it trained in the cache
# Extra rows: BENCH_EXTRA='label|command args' lines. BENCH_SIM=1 first starts `simulate` on the
# example snapshot and points KUBECONFIG at it, for the live plan:
#   BENCH_SIM=1 BENCH_EXTRA="plan-live|plan -f examples/manifest.yaml" src/bench/startup-bench.sh
# BENCH_BEFORE=LAUNCHER adds a "before" cold and warm row after each command's rows, for that other
# build (its own trained archive), so a change is compared within one run.
# BENCH_JAVA=JAVA_HOME adds a cold and a warm row per command run by that other Java (its own trained
# archive: on JDK 25+ the launcher's AOT cache), e.g. BENCH_JAVA=/usr/lib/jvm/temurin-25-jdk-amd64.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
launcher=${1:-$root/target/kubectl-stsresize}
runs=${2:-7}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT INT TERM
export XDG_CACHE_HOME="$cache"

# trained [CACHE]: an archive is in place and no training is running
trained() {
  dir=${1:-$cache}/kubectl-stsresize
  for lock in "$dir"/*.lock; do
    [ -d "$lock" ] && return 1
  done
  for f in "$dir"/*.jsa "$dir"/*.aot; do
    [ -f "$f" ] && return 0
  done
  return 1
}

# train LAUNCHER [CACHE]: the launcher's first command, then its background training, waited for
train() {
  XDG_CACHE_HOME=${2:-$cache} "$1" version >/dev/null 2>&1
  sleep 1
  i=0
  while [ $i -lt 1800 ] && ! trained "${2:-}"; do
    sleep 0.1
    i=$((i + 1))
  done
  trained "${2:-}" || echo "note: no archive was trained for $1; its warm rows are cold" >&2
}

# launcher_java: the Java the launcher runs, found as it finds it (JAVA_HOME first, then PATH)
launcher_java() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    echo "$JAVA_HOME/bin/java"
  else
    command -v java
  fi
}
# java_version JAVA: its first -version line; java_major JAVA: its major version
java_version() { "$1" -version 2>&1 | head -n 1; }
java_major() { java_version "$1" | sed 's/.* version "\([0-9]*\)[."].*/\1/'; }

# now_ns: nanoseconds since the epoch, or nothing where date has no %N (then wall time is time(1)'s %e,
# in hundredths: too coarse for commands of 0.03-0.06 s, whose ratio it would round by up to 30%).
# The interval also holds env's and time's own start (~1 ms), alike for every row.
now_ns() {
  t=$(date +%s%N)
  case $t in
    *[!0-9]*) ;;
    *) echo "$t" ;;
  esac
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# row LABEL MODE-ENV... -- CMD...: a row to measure. All rows are measured round-robin (run 1 of
# every row, then run 2 of every row...), so a change of load hits every row alike.
specs=$cache/specs
: > "$specs"
row() {
  row_label=$1; shift
  row_envs=
  while [ "$1" != -- ]; do row_envs="$row_envs $1"; shift; done
  shift
  printf '%s|%s|%s\n' "$row_label" "${row_envs# }" "$*" >> "$specs"
}

# measure_rows: RUNS rounds over the rows, then one line per row, "label wall cpu rss" (medians)
measure_rows() {
  i=0
  while [ $i -lt "$runs" ]; do
    n=0
    while IFS='|' read -r label envs cmd; do
      start=$(now_ns)
      # shellcheck disable=SC2086
      env $envs /usr/bin/time -a -o "$cache/times.$n" -f "%e %U %S %M" $cmd >/dev/null 2>&1 </dev/null
      end=$(now_ns)
      [ -z "$start" ] || echo "$(((end - start) / 1000))" >> "$cache/wall.$n"
      n=$((n + 1))
    done < "$specs"
    i=$((i + 1))
  done
  n=0
  while IFS='|' read -r label envs cmd; do
    out=$cache/times.$n
    grep -v '^Command' "$out" > "$out.clean" # time notes a non-zero exit (plan's 2) on a line of its own
    if [ -f "$cache/wall.$n" ]; then # microseconds, printed as seconds
      wall=$(median < "$cache/wall.$n" | awk '{printf "%.3f\n", $1 / 1000000}')
    else
      wall=$(awk '{print $1}' "$out.clean" | median)
    fi
    cpu=$(awk '{printf "%.2f\n", $2 + $3}' "$out.clean" | median)
    rss=$(awk '{printf "%.0f\n", $4 / 1024}' "$out.clean" | median)
    echo "$label $wall $cpu $rss"
    n=$((n + 1))
  done < "$specs"
}

ex=$root/examples
if [ "${BENCH_SIM:-0}" = 1 ]; then
  STSRESIZE_CDS=0 "$launcher" simulate --state "$ex/live-snapshot.yaml" --kubeconfig-out "$cache/sim.kubeconfig" \
    >"$cache/sim.out" 2>&1 &
  sim=$!
  trap 'kill "$sim" 2>/dev/null; rm -rf "$cache"' EXIT INT TERM
  i=0
  until grep -q '^ready ' "$cache/sim.out" 2>/dev/null || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
  export KUBECONFIG="$cache/sim.kubeconfig"
fi
plan="plan -f $ex/manifest.yaml --live $ex/live-snapshot.yaml"
rows=$cache/rows
{
  row "kubectl-version--client" -- kubectl version --client
  # Train the archive once (the launcher does it in the background on first use) and wait for it.
  train "$launcher"
  before=${BENCH_BEFORE:-}
  [ -z "$before" ] || train "$before" "$cache/before"
  other=${BENCH_JAVA:-}
  if [ -n "$other" ]; then
    other_name=java$(java_major "$other/bin/java")
    (JAVA_HOME=$other; export JAVA_HOME; train "$launcher" "$cache/other")
  fi
  for cmd in "--help" "version" "plan --help" "$plan"; do
    case $cmd in
      "plan --help") name="plan--help" ;; # a subcommand's help: builds that command's options in full
      *) name=$(echo "$cmd" | cut -d' ' -f1) ;;
    esac
    # shellcheck disable=SC2086
    row "$name:jvm-defaults" STSRESIZE_CDS=0 STSRESIZE_JAVA_OPTS=-Xshare:auto -- "$launcher" $cmd
    # shellcheck disable=SC2086
    row "$name:cold" STSRESIZE_CDS=0 -- "$launcher" $cmd
    # shellcheck disable=SC2086
    row "$name:warm" -- "$launcher" $cmd
    if [ -n "$before" ]; then
      # shellcheck disable=SC2086
      row "$name:before-cold" STSRESIZE_CDS=0 -- "$before" $cmd
      # shellcheck disable=SC2086
      row "$name:before-warm" XDG_CACHE_HOME="$cache/before" -- "$before" $cmd
    fi
    if [ -n "$other" ]; then
      # shellcheck disable=SC2086
      row "$name:$other_name-cold" JAVA_HOME="$other" STSRESIZE_CDS=0 -- "$launcher" $cmd
      # shellcheck disable=SC2086
      row "$name:$other_name-warm" JAVA_HOME="$other" XDG_CACHE_HOME="$cache/other" -- "$launcher" $cmd
    fi
  done
  if [ -n "${BENCH_EXTRA:-}" ]; then
    echo "$BENCH_EXTRA" | while IFS='|' read -r label cmd; do
      [ -n "$label" ] || continue
      # shellcheck disable=SC2086
      row "$label:cold" STSRESIZE_CDS=0 -- "$launcher" $cmd
      # shellcheck disable=SC2086
      row "$label:warm" -- "$launcher" $cmd
      if [ -n "$before" ]; then
        # shellcheck disable=SC2086
        row "$label:before-cold" STSRESIZE_CDS=0 -- "$before" $cmd
        # shellcheck disable=SC2086
        row "$label:before-warm" XDG_CACHE_HOME="$cache/before" -- "$before" $cmd
      fi
    done
  fi
}
measure_rows > "$rows"

base=$(awk 'NR==1 {print $2}' "$rows")
base_cpu=$(awk 'NR==1 {print $3}' "$rows")
java=$(launcher_java)
echo "runs=$runs per row; $(nproc 2>/dev/null || echo '?') cores; load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "the launcher's Java: $java, $(java_version "$java")"
[ -z "${BENCH_JAVA:-}" ] || echo "$other_name rows: $BENCH_JAVA/bin/java, $(java_version "$BENCH_JAVA/bin/java")"
# the ratios are the figure issue 16 asks for: wall and CPU time, each over kubectl's in the same run
printf '%-28s %9s %9s %8s %9s %13s\n' command wall_s cpu_s rss_MiB x_kubectl x_kubectl_cpu
awk -v base="$base" -v base_cpu="$base_cpu" '{printf "%-28s %9.3f %9.2f %8d %9.2f %13.2f\n", $1, $2, $3, $4,
  (base > 0 ? $2 / base : 0), (base_cpu > 0 ? $3 / base_cpu : 0)}' "$rows"

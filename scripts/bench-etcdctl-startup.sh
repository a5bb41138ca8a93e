#!/usr/bin/env bash
# Measures `etcdctl get foo` in one run against the same real etcd (started here on 127.0.0.1: free
# ports, temporary data dir, stopped on exit) for:
#   - the Go etcdctl (ETCDCTL_API=3);
#   - etcdj's bin/etcdctl on its warm path (the resident server, after its warm-up);
#   - etcdj's bin/etcdctl on its cold path (a JVM per call, ETCDJ_NO_DAEMON=1);
#   - etcdj's first call (no server yet: it runs cold and starts the server for the calls after it).
# For each: median and fastest wall time, and median CPU time (user+sys) per call. The warm path's CPU
# includes the server's share (its CPU over the runs divided by the runs). The first call's CPU is the
# call's own; the server it starts runs after it, detached. Wall times depend on what else the machine
# runs, so the load average is printed with them; CPU per call hardly does.
# The warm servers run in temporary directories of their own (never the user's) and are stopped on exit.
# Usage: scripts/bench-etcdctl-startup.sh [runs] [first-call runs]   (defaults 20 and 5)
# Build first: mvn -q package -DskipTests. hyperfine, when installed, is run as well (BENCH_HYPERFINE=0: not).
# BENCH_NICE=-20 (as root): the whole run, etcd and the servers included, at that priority, so that
# other work on the machine disturbs the wall times less (an approximation of a quiet machine).
set -euo pipefail
if [ -n "${BENCH_NICE:-}" ] && [ -z "${BENCH_NICED:-}" ]; then
  BENCH_NICED=1 exec nice -n "$BENCH_NICE" "$0" "$@"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-20}"
first_runs="${2:-5}"
ours="$root/bin/etcdctl"
real="${REAL_ETCDCTL:-/usr/bin/etcdctl}"
etcd_bin="${ETCD_BIN:-/usr/bin/etcd}"
for b in "$real" "$etcd_bin"; do
  [ -x "$b" ] || { echo "Error: $b not found (install the Debian packages etcd-server and etcd-client)" >&2; exit 1; }
done
command -v python3 >/dev/null 2>&1 || { echo "Error: python3 is needed for the timings" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cport=$(free_port); pport=$(free_port)
data=$(mktemp -d)
"$etcd_bin" --name bench --data-dir "$data/d" --listen-client-urls "http://127.0.0.1:$cport" \
  --advertise-client-urls "http://127.0.0.1:$cport" --listen-peer-urls "http://127.0.0.1:$pport" \
  --initial-advertise-peer-urls "http://127.0.0.1:$pport" --initial-cluster "bench=http://127.0.0.1:$pport" \
  >"$data/etcd.log" 2>&1 &
etcd_pid=$!
export ETCDJ_WARM_DIR="$data/warm"
# stop_servers DIR: stops the warm servers whose pid files are in DIR and waits until they are gone.
stop_servers() {
  local pidfile pid
  for pidfile in "$1"/*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
}
stop_all() {
  local dir
  for dir in "$data"/warm*; do [ -d "$dir" ] && stop_servers "$dir"; done
  kill "$etcd_pid" 2>/dev/null; wait "$etcd_pid" 2>/dev/null
  rm -rf "$data"
}
trap stop_all EXIT
ep="--endpoints=127.0.0.1:$cport"
export ETCDCTL_API=3
for _ in $(seq 100); do
  "$real" "$ep" put foo bar >/dev/null 2>&1 && break
  sleep 0.1
done

# wait_for_server: waits until a warm server answers in $ETCDJ_WARM_DIR (a JAVA_OPTS no JVM accepts
# makes the cold path fail, so only the server can answer).
wait_for_server() {
  for _ in $(seq 300); do
    JAVA_OPTS=-XX:+NoSuchOption "$ours" "$ep" get foo >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "Error: the warm server did not answer (see $ETCDJ_WARM_DIR/*.log)" >&2
  return 1
}

# timings N CMD...: runs CMD N times; prints one line per run: wall ms, CPU ms (user+sys of the call
# and everything it waited for).
timings() {
  python3 - "$@" <<'EOF'
import os, sys, time
n = int(sys.argv[1]); argv = sys.argv[2:]
for _ in range(n):
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0); os.dup2(null, 1); os.dup2(null, 2)
        os.execvp(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.monotonic() - start) * 1000
    if status != 0:
        sys.exit("Error: %s failed (status %d)" % (" ".join(argv), status))
    print("%.1f %.1f" % (wall, (usage.ru_utime + usage.ru_stime) * 1000))
EOF
}
# summary FILE: "median wall, fastest wall, median CPU" of a timings file, in ms.
summary() {
  python3 - "$1" <<'EOF'
import statistics, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
wall = [r[0] for r in rows]; cpu = [r[1] for r in rows]
print("%.1f %.1f %.1f %d" % (statistics.median(wall), min(wall), statistics.median(cpu), len(rows)))
EOF
}
# server_cpu_ms: the warm server's user+system CPU so far, in milliseconds.
server_cpu_ms() {
  awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$server_pid/stat"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# The first call: each run in a fresh server directory, so no server answers; the server it starts is
# waited for (it must come up) and stopped before the next run.
: >"$data/first"
for i in $(seq "$first_runs"); do
  export ETCDJ_WARM_DIR="$data/warm-first-$i"
  mkdir -m 700 "$ETCDJ_WARM_DIR"
  timings 1 "$ours" "$ep" get foo >>"$data/first"
  wait_for_server
  stop_servers "$ETCDJ_WARM_DIR"
done

# The warm path: one server, started by a first call; its warm-up runs beside its first calls, so
# the measured calls wait until it is done.
export ETCDJ_WARM_DIR="$data/warm"
"$ours" "$ep" get foo >/dev/null 2>&1
wait_for_server
server_pid=$(cat "$ETCDJ_WARM_DIR"/*.pid)
sleep "${WARM_UP_SECONDS:-15}"

if command -v hyperfine >/dev/null 2>&1 && [ "${BENCH_HYPERFINE:-1}" != 0 ]; then
  hyperfine -N --warmup 3 --runs "$runs" "$real $ep get foo" "$ours $ep get foo" \
    "env ETCDJ_NO_DAEMON=1 $ours $ep get foo"
fi

# Interleaved rounds, so that a change in the machine's load touches every variant alike.
: >"$data/go"; : >"$data/warm-runs"; : >"$data/cold"
"$ours" "$ep" get foo >/dev/null   # the page cache
before=$(server_cpu_ms)
for _ in $(seq "$runs"); do
  timings 1 "$real" "$ep" get foo >>"$data/go"
  timings 1 "$ours" "$ep" get foo >>"$data/warm-runs"
  ETCDJ_NO_DAEMON=1 timings 1 "$ours" "$ep" get foo >>"$data/cold"
done
after=$(server_cpu_ms)
# every round sent one call to the server (the cold calls never reach it)
server_share=$(( (after - before) / runs ))
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

read -r go_med go_min go_cpu _ <<<"$(summary "$data/go")"
read -r warm_med warm_min warm_cpu _ <<<"$(summary "$data/warm-runs")"
read -r cold_med cold_min cold_cpu _ <<<"$(summary "$data/cold")"
read -r first_med first_min first_cpu _ <<<"$(summary "$data/first")"
warm_total=$(awk -v a="$warm_cpu" -v b="$server_share" 'BEGIN { printf "%.1f", a + b }')
ratio() { awk -v a="$1" -v b="$go_med" 'BEGIN { printf "%.2fx", a / b }'; }

echo "etcdctl get foo against one etcd 3.4; $runs interleaved runs each, the first call $first_runs runs"
echo "load average $load_before before, $load_after after, on $(nproc) cores; nice $(nice)"
printf '%-42s %12s %8s %8s %s\n' "" "median wall" "ratio" "fastest" "CPU per call (median)"
printf '%-42s %9s ms %8s %5s ms %s\n' "Go etcdctl" "$go_med" "1.00x" "$go_min" "$go_cpu ms"
printf '%-42s %9s ms %8s %5s ms %s\n' "etcdj bin/etcdctl, warm path" "$warm_med" "$(ratio "$warm_med")" \
  "$warm_min" "$warm_total ms (client $warm_cpu + server $server_share)"
printf '%-42s %9s ms %8s %5s ms %s\n' "etcdj bin/etcdctl, cold (ETCDJ_NO_DAEMON=1)" "$cold_med" \
  "$(ratio "$cold_med")" "$cold_min" "$cold_cpu ms"
printf '%-42s %9s ms %8s %5s ms %s\n' "etcdj bin/etcdctl, first call (no server)" "$first_med" \
  "$(ratio "$first_med")" "$first_min" "$first_cpu ms (its server starts after it)"

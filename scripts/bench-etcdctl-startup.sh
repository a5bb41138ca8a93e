#!/usr/bin/env bash
# Measures `etcdctl get foo` for the real etcdctl and etcdj's bin/etcdctl on its warm path (the
# resident server) and its direct path (a JVM per call, ETCDJ_NO_DAEMON=1), against the same real etcd
# started here on 127.0.0.1 (free ports, temporary data dir, stopped on exit). The warm server runs in
# a temporary directory of its own (never the user's) and is stopped on exit; its CPU time is counted
# in the warm path's CPU per call.
# Uses hyperfine when installed (apt-get install hyperfine), else N timed runs each and their medians.
# Usage: scripts/bench-etcdctl-startup.sh [runs]   (build first: mvn -q package -DskipTests)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-20}"
ours="$root/bin/etcdctl"
real="${REAL_ETCDCTL:-/usr/bin/etcdctl}"
etcd_bin="${ETCD_BIN:-/usr/bin/etcd}"
for b in "$real" "$etcd_bin"; do
  [ -x "$b" ] || { echo "Error: $b not found (install the Debian packages etcd-server and etcd-client)" >&2; exit 1; }
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cport=$(free_port); pport=$(free_port)
data=$(mktemp -d)
"$etcd_bin" --name bench --data-dir "$data/d" --listen-client-urls "http://127.0.0.1:$cport" \
  --advertise-client-urls "http://127.0.0.1:$cport" --listen-peer-urls "http://127.0.0.1:$pport" \
  --initial-advertise-peer-urls "http://127.0.0.1:$pport" --initial-cluster "bench=http://127.0.0.1:$pport" \
  >"$data/etcd.log" 2>&1 &
etcd_pid=$!
export ETCDJ_WARM_DIR="$data/warm"
stop_all() {
  local pidfile
  for pidfile in "$ETCDJ_WARM_DIR"/*.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  kill "$etcd_pid" 2>/dev/null; wait "$etcd_pid" 2>/dev/null
  sleep 0.5
  rm -rf "$data"
}
trap stop_all EXIT
ep="--endpoints=127.0.0.1:$cport"
for _ in $(seq 100); do
  ETCDCTL_API=3 "$real" "$ep" put foo bar >/dev/null 2>&1 && break
  sleep 0.1
done

# The first warm call starts the server (and runs directly); wait until it answers.
"$ours" "$ep" get foo >/dev/null 2>&1
for _ in $(seq 300); do
  JAVA_OPTS=-XX:+NoSuchOption "$ours" "$ep" get foo >/dev/null 2>&1 && break
  sleep 0.2
done
server_pid=$(cat "$ETCDJ_WARM_DIR"/*.pid)
sleep "${WARM_UP_SECONDS:-15}"   # the server's own warm-up runs beside its first calls; let it finish

if command -v hyperfine >/dev/null 2>&1; then
  ETCDCTL_API=3 hyperfine -N --warmup 3 --runs "$runs" "$real $ep get foo" "$ours $ep get foo" \
    "env ETCDJ_NO_DAEMON=1 $ours $ep get foo"
  exit 0
fi

# median_ms CMD...: runs CMD $runs times and prints the median wall time in milliseconds.
median_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}
# median_cpu_ms CMD...: median user+system CPU time in milliseconds; unlike wall time it hardly
# depends on what else the machine is running.
median_cpu_ms() {
  local TIMEFORMAT='%U %S'
  for _ in $(seq "$runs"); do
    { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{printf "%d\n", ($1 + $2) * 1000}'
  done | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}
# server_cpu_ms: the warm server's user+system CPU so far, in milliseconds.
server_cpu_ms() {
  awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$server_pid/stat"
}
export ETCDCTL_API=3
"$ours" "$ep" get foo >/dev/null   # warm the page cache
real_ms=$(median_ms "$real" "$ep" get foo)
warm_ms=$(median_ms "$ours" "$ep" get foo)
direct_ms=$(ETCDJ_NO_DAEMON=1 median_ms "$ours" "$ep" get foo)
echo "runs: $runs"
echo "real etcdctl get foo:                 median ${real_ms} ms"
echo "etcdj etcdctl get foo (warm path):    median ${warm_ms} ms"
echo "etcdj etcdctl get foo (direct JVM):   median ${direct_ms} ms"
awk -v a="$warm_ms" -v b="$real_ms" 'BEGIN { if (b > 0) printf "ratio warm/real (wall): %.2fx\n", a / b }'
awk -v a="$direct_ms" -v b="$real_ms" 'BEGIN { if (b > 0) printf "ratio direct/real (wall): %.1fx\n", a / b }'
real_cpu=$(median_cpu_ms "$real" "$ep" get foo)
before=$(server_cpu_ms)
client_cpu=$(median_cpu_ms "$ours" "$ep" get foo)
after=$(server_cpu_ms)
warm_cpu=$(( client_cpu + (after - before) / runs ))
direct_cpu=$(ETCDJ_NO_DAEMON=1 median_cpu_ms "$ours" "$ep" get foo)
echo "CPU time (user+sys) per call: real ${real_cpu} ms (median), warm ${warm_cpu} ms (client median ${client_cpu} ms + server mean $(( (after - before) / runs )) ms), direct ${direct_cpu} ms (median)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

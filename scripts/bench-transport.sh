#!/usr/bin/env bash
# What grpc-java's server layer costs on the client port: the same two unary KV methods (Range and
# Put, answered from memory) served by grpc-java's Netty server and by a handler written directly
# on Netty's HTTP/2 codec (io.etcdj.benchmark.probe), each in a JVM started with a member's flags
# (bin/member-jvm-defaults), measured with etcd's Go `benchmark` back to back in one run. Prints
# requests/s and the server's CPU per request, medians over the rounds, and the ratio lean/grpc.
# Warm (the default): one server per implementation and round, warmed up, then every workload.
# --cold: a fresh server for every workload, measured from its first request (what grpc-java's
# layer costs a member's first seconds, in the interpreter and the compiler).
#
# Builds nothing: run `mvn -q package -DskipTests` first.
#
# Usage: scripts/bench-transport.sh [--cold] [--rounds R] [--warmup N] [--go-benchmark PATH] [--port P]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3 warmup=20000 port=31555 cold=false
bench_bin="${ETCD_GO_BENCHMARK:-$HOME/.cache/etcd-tools/bin/benchmark}"
die() { echo "Error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --cold) cold=true; shift ;;
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --warmup) warmup="${2:?--warmup needs a value}"; shift 2 ;;
    --go-benchmark) bench_bin="${2:?--go-benchmark needs a path}"; shift 2 ;;
    --port) port="${2:?--port needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option: $1 (see --help)" ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive number: $rounds"
[[ "$warmup" =~ ^[0-9]+$ ]] || die "--warmup must be a number: $warmup"
[ -x "$bench_bin" ] || die "etcd's Go benchmark not found at $bench_bin (build it: tools/build-etcd-benchmark.sh, or --go-benchmark)"

workloads=(
  "range-s-1|--clients 1 --conns 1 range probe-key --consistency s --total 5000"
  "range-s-100|--clients 100 --conns 10 range probe-key --consistency s --total 40000"
  "put-1|--clients 1 --conns 1 put --key-size 8 --val-size 256 --total 5000"
  "put-100|--clients 100 --conns 10 put --key-size 8 --val-size 256 --key-space-size 100000 --total 40000"
)

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$root/bin/member-jvm-defaults"
clk_tck=$(getconf CLK_TCK)
cpu_ticks() { local s; s=$(cat "/proc/$1/stat"); s=${s##*) }; local f; read -r -a f <<<"$s"; echo $(( f[11] + f[12] )); }

start_server() {
  JAVA_OPTS="-XX:+UseSerialGC $member_jvm_defaults ${JAVA_OPTS:-}" \
    "$root/bin/run-module" benchmark io.etcdj.benchmark.probe.UnaryProbe "$1" "$port" >"$work/$1.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    grep -q '^serving' "$work/$1.log" 2>/dev/null && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$work/$1.log" >&2
  die "the $1 probe did not start"
}

stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }

# run IMPL NAME ROUND ARGS...: appends "impl name rps cpu-us-per-request" to results
run() {
  local impl="$1" name="$2" round="$3"; shift 3
  local total before after rps
  total=$(sed -E 's/.*--total ([0-9]+).*/\1/' <<<"$*")
  before=$(cpu_ticks "$server_pid")
  # shellcheck disable=SC2068
  "$bench_bin" --endpoints "127.0.0.1:$port" $@ >"$work/out" 2>&1 || { cat "$work/out" >&2; die "$impl $name failed"; }
  after=$(cpu_ticks "$server_pid")
  rps=$(awk '/Requests\/sec:/ { print $2 }' "$work/out")
  [ -n "$rps" ] || { cat "$work/out" >&2; die "$impl $name: no report"; }
  local cpu; cpu=$(awk -v t=$(( after - before )) -v hz="$clk_tck" -v n="$total" 'BEGIN { printf "%.0f", t / hz / n * 1e6 }')
  printf '%s\t%s\t%s\t%s\n' "$impl" "$name" "$rps" "$cpu" >>"$work/results"
  printf '  %-4s %-11s round %s: %10.1f req/s  server CPU %5s us/req\n' "$impl" "$name" "$round" "$rps" "$cpu"
}

: >"$work/results"
for round in $(seq 1 "$rounds"); do
  echo "round $round/$rounds (load average:$(uptime | sed 's/.*load average://'))"
  for impl in grpc lean; do
    if $cold; then
      for w in "${workloads[@]}"; do
        start_server "$impl"
        # shellcheck disable=SC2086
        run "$impl" "${w%%|*}" "$round" ${w#*|}
        stop_server
      done
      continue
    fi
    start_server "$impl"
    if [ "$warmup" -gt 0 ]; then
      "$bench_bin" --endpoints "127.0.0.1:$port" --clients 20 --conns 4 put --total "$warmup" >/dev/null 2>&1
      "$bench_bin" --endpoints "127.0.0.1:$port" --clients 20 --conns 4 range probe-key --total "$warmup" >/dev/null 2>&1
    fi
    for w in "${workloads[@]}"; do
      # shellcheck disable=SC2086
      run "$impl" "${w%%|*}" "$round" ${w#*|}
    done
    stop_server
  done
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "| workload | grpc-java req/s | lean req/s | lean/grpc | grpc-java CPU us/req | lean CPU us/req |"
echo "|---|---:|---:|---:|---:|---:|"
for w in "${workloads[@]}"; do
  name="${w%%|*}"
  g=$(awk -F'\t' -v n="$name" '$1 == "grpc" && $2 == n { print $3 }' "$work/results" | median)
  l=$(awk -F'\t' -v n="$name" '$1 == "lean" && $2 == n { print $3 }' "$work/results" | median)
  gc=$(awk -F'\t' -v n="$name" '$1 == "grpc" && $2 == n { print $4 }' "$work/results" | median)
  lc=$(awk -F'\t' -v n="$name" '$1 == "lean" && $2 == n { print $4 }' "$work/results" | median)
  awk -v n="$name" -v g="$g" -v l="$l" -v gc="$gc" -v lc="$lc" \
    'BEGIN { printf "| %s | %.0f | %.0f | %.2f | %s | %s |\n", n, g, l, l / g, gc, lc }'
done

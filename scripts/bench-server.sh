#!/usr/bin/env bash
# Side-by-side benchmark: the real etcd and our server, same workloads, same machine, same run.
#
# Starts each server on free 127.0.0.1 ports in its own temporary directory, waits for /health,
# then runs every workload against etcd and ours in turn (A/B for each workload, R rounds), and
# prints per-workload medians of the rounds and the ratio ours/etcd. Everything it started is
# stopped and every temporary directory removed on exit, also on Ctrl-C or failure.
#
# Builds nothing: run `mvn -q package -DskipTests` first (bin/etcd and bin/etcd-benchmark).
#
# Usage: scripts/bench-server.sh [options]
#   --rounds R        rounds per workload and server (default 3)
#   --cluster N       members per server: 1 (default) or 3
#   --scale F         multiply every workload's --total by F (default 1; 0.2 for a smoke run)
#   --port-base P     look for free ports from P upwards (default: random in 20000-29999)
#   --etcd PATH       the real etcd binary (default /usr/bin/etcd, or $ETCD_BIN)
#   --ours PATH       our server's launcher (default bin/etcd of this checkout, or $OURS_BIN)
#   --only NAME       run only workload NAME (repeatable): put-1 put-100 range-l-1 range-l-100
#                     range-s-1 range-s-100 watch-latency
#   --jfr FILE        record a JFR profile of our server (first member) during put-100 of the
#                     last round and write it to FILE
#   --results FILE    also write the raw per-round RESULT lines (TSV) to FILE
#   --health-timeout S  seconds to wait for a server to become healthy (default 60)
#   --run-timeout S   seconds after which one benchmark run is abandoned (default 180)
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
cluster=1
scale=1
port_base=$(( 20000 + RANDOM % 10000 ))
etcd_bin="${ETCD_BIN:-/usr/bin/etcd}"
ours_bin="${OURS_BIN:-$root/bin/etcd}"
bench_bin="$root/bin/etcd-benchmark"
etcdctl_bin="${ETCDCTL_BIN:-/usr/bin/etcdctl}"
only=()
jfr_file=""
results_file=""
health_timeout=60
run_timeout=180

die() { echo "bench-server: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --cluster) cluster="$2"; shift 2 ;;
    --scale) scale="$2"; shift 2 ;;
    --port-base) port_base="$2"; shift 2 ;;
    --etcd) etcd_bin="$2"; shift 2 ;;
    --ours) ours_bin="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --jfr) jfr_file="$2"; shift 2 ;;
    --results) results_file="$2"; shift 2 ;;
    --health-timeout) health_timeout="$2"; shift 2 ;;
    --run-timeout) run_timeout="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option: $1 (see --help)" ;;
  esac
done

[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
[[ "$cluster" == 1 || "$cluster" == 3 ]] || die "--cluster must be 1 or 3"
[[ "$scale" =~ ^[0-9]*\.?[0-9]+$ ]] || die "--scale must be a positive number"
[ -x "$etcd_bin" ] || die "real etcd not found at $etcd_bin"
[ -x "$ours_bin" ] || die "our server launcher not found at $ours_bin"
[ -x "$etcdctl_bin" ] || die "etcdctl not found at $etcdctl_bin (needed to seed the range key)"
"$bench_bin" --version >/dev/null 2>&1 || die "bin/etcd-benchmark does not run; build first: mvn -q package -DskipTests"
for tool in curl timeout awk sort; do command -v "$tool" >/dev/null || die "$tool is required"; done

work=$(mktemp -d -t bench-server.XXXXXX)
pids=()

# stop_pids PID...: TERM, up to 10 s to exit, then KILL; only processes this script started.
stop_pids() {
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "$@"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
}
cleanup() { stop_pids "${pids[@]}"; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
next_port=$port_base
# take_port: sets $port to the next free port (no subshell, so the counter advances).
take_port() {
  while ! port_free "$next_port"; do next_port=$(( next_port + 1 )); done
  port=$next_port; next_port=$(( next_port + 1 ))
}

# Workloads: name, then the benchmark arguments.
# Totals keep each run to seconds on a small machine (range-l-1 is small because a linearizable
# read costs our server a heartbeat tick today); --scale adjusts them all.
total() { awk -v t="$1" -v s="$scale" 'BEGIN { n = int(t * s); print (n < 1 ? 1 : n) }'; }
range_key="bench-range-key"
workloads=(
  "put-1|--clients 1 --conns 1 put --total $(total 2000)"
  "put-100|--clients 100 --conns 10 put --total $(total 20000)"
  "range-l-1|--clients 1 --conns 1 range $range_key --consistency l --total $(total 500)"
  "range-l-100|--clients 100 --conns 10 range $range_key --consistency l --total $(total 20000)"
  "range-s-1|--clients 1 --conns 1 range $range_key --consistency s --total $(total 5000)"
  "range-s-100|--clients 100 --conns 10 range $range_key --consistency s --total $(total 20000)"
  "watch-latency|--conns 10 watch-latency --put-total $(total 500) --put-rate 100 --streams 10 --watchers-per-stream 10"
)
selected() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [[ "$1" == "$o" ]] && return 0; done; return 1
}

declare -A endpoints first_pid member_pids status
# start_server KIND BIN: starts $cluster members; sets endpoints[KIND] and first_pid[KIND].
start_server() {
  local kind="$1" bin="$2" i initial="" names=() peers=() clients=()
  for i in $(seq 1 "$cluster"); do
    names+=("$kind$i")
    take_port; clients+=("$port")
    take_port; peers+=("$port")
    initial+="${initial:+,}$kind$i=http://127.0.0.1:${peers[-1]}"
  done
  local eps=""
  for i in $(seq 0 $(( cluster - 1 ))); do
    local dir="$work/$kind-${names[$i]}"
    mkdir -p "$dir"
    "$bin" --name "${names[$i]}" --data-dir "$dir/data" \
      --listen-client-urls "http://127.0.0.1:${clients[$i]}" --advertise-client-urls "http://127.0.0.1:${clients[$i]}" \
      --listen-peer-urls "http://127.0.0.1:${peers[$i]}" --initial-advertise-peer-urls "http://127.0.0.1:${peers[$i]}" \
      --initial-cluster "$initial" --initial-cluster-state new --initial-cluster-token "bench-$kind" \
      >"$dir/server.log" 2>&1 &
    pids+=($!)
    member_pids[$kind]+=" $!"
    [ "$i" -eq 0 ] && first_pid[$kind]=$!
    eps+="${eps:+,}127.0.0.1:${clients[$i]}"
  done
  endpoints[$kind]="$eps"
}

# wait_healthy KIND: every member answers /health with "health":"true" within the timeout.
wait_healthy() {
  local kind="$1" deadline=$(( SECONDS + health_timeout )) ep healthy pid
  while [ $SECONDS -lt $deadline ]; do
    for pid in ${member_pids[$kind]}; do
      kill -0 "$pid" 2>/dev/null || { echo "$kind: member process $pid exited" >&2; return 1; }
    done
    healthy=0
    for ep in ${endpoints[$kind]//,/ }; do
      curl -s -m 2 "http://$ep/health" 2>/dev/null | grep -q '"health":"true"' && healthy=$(( healthy + 1 ))
    done
    [ "$healthy" -eq "$cluster" ] && return 0
    sleep 0.5
  done
  return 1
}

describe_failure() {
  local kind="$1" log
  echo "$kind: ${cluster}-member cluster did not become healthy within ${health_timeout}s; skipping it. Last log lines:" >&2
  for log in "$work/$kind"-*/server.log; do
    echo "  -- $(basename "$(dirname "$log")"):" >&2
    tail -n 5 "$log" | sed 's/^/     /' >&2
  done
}

# cpu_ticks KIND: user+system CPU clock ticks used so far by all members of KIND.
clk_tck=$(getconf CLK_TCK)
cpu_ticks() {
  local pid sum=0 stat f
  for pid in ${member_pids[$1]}; do
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    stat=${stat##*) }  # fields after the command name, which may contain spaces
    read -r -a f <<<"$stat"
    sum=$(( sum + f[11] + f[12] ))  # utime and stime (fields 14 and 15 of the full line)
  done
  echo "$sum"
}

# run_bench KIND NAME ROUND ARGS...: one benchmark run; appends
# "kind name round rps p50 p99 cpu-ms-per-1000-requests" to raw.
raw="$work/raw.tsv"
: >"$raw"
run_bench() {
  local kind="$1" name="$2" round="$3"; shift 3
  local out="$work/$kind-$name-$round.out" line cpu_before cpu_after
  cpu_before=$(cpu_ticks "$kind")
  # shellcheck disable=SC2086
  timeout "$run_timeout" "$bench_bin" --endpoints "${endpoints[$kind]}" "$@" >"$out" 2>&1
  local rc=$?
  cpu_after=$(cpu_ticks "$kind")
  line=$(grep '^RESULT ' "$out" | tail -n 1)
  if [ $rc -ne 0 ] || [ -z "$line" ] || ! grep -q ' errors=0 ' <<<"$line"; then
    echo "  $kind $name round $round: FAILED (exit $rc) $(grep -m1 -E 'rpc error|Error|Exception' "$out" | cut -c1-160)" >&2
    printf '%s\t%s\t%s\tfail\tfail\tfail\tfail\n' "$kind" "$name" "$round" >>"$raw"
    return 1
  fi
  local rps p50 p99 ok cpu
  rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line")
  p50=$(sed -E 's/.* p50_ms=([0-9.]+).*/\1/' <<<"$line")
  p99=$(sed -E 's/.* p99_ms=([0-9.]+).*/\1/' <<<"$line")
  ok=$(sed -E 's/.* ok=([0-9]+).*/\1/' <<<"$line")
  # Server CPU per request does not depend on how much CPU other processes left us, unlike req/s.
  cpu=$(awk -v t=$(( cpu_after - cpu_before )) -v hz="$clk_tck" -v n="$ok" 'BEGIN { printf "%.1f", t * 1000 / hz / n * 1000 }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$round" "$rps" "$p50" "$p99" "$cpu" >>"$raw"
  printf '  %-5s %-12s round %s: %10.1f req/s  p50 %8.3f ms  p99 %8.3f ms  server CPU %7.1f ms/1000 req\n' \
    "$kind" "$name" "$round" "$rps" "$p50" "$p99" "$cpu"
}

echo "bench-server: ${cluster}-member clusters, $rounds rounds, scale $scale, $(nproc) CPUs, load average:$(uptime | sed 's/.*load average://')"
start_server etcd "$etcd_bin"
start_server ours "$ours_bin"
kinds=()
for kind in etcd ours; do
  if wait_healthy "$kind"; then
    kinds+=("$kind"); status[$kind]=ok
    echo "$kind: healthy at ${endpoints[$kind]}"
  else
    status[$kind]="not healthy"
    describe_failure "$kind"
    # shellcheck disable=SC2086
    stop_pids ${member_pids[$kind]}  # so that it does not take CPU from the other server's runs
  fi
done
[ ${#kinds[@]} -gt 0 ] || exit 1

value=$(head -c 256 /dev/zero | tr '\0' 'v')
for kind in "${kinds[@]}"; do
  ETCDCTL_API=3 timeout 30 "$etcdctl_bin" --endpoints "${endpoints[$kind]}" put "$range_key" "$value" >/dev/null \
    || echo "$kind: could not seed the range key" >&2
  # Warm-up, not measured: lets the JVM compile its hot paths; the same is done for etcd.
  timeout "$run_timeout" "$bench_bin" --endpoints "${endpoints[$kind]}" --clients 20 --conns 4 put --total "$(total 5000)" >/dev/null 2>&1
  timeout "$run_timeout" "$bench_bin" --endpoints "${endpoints[$kind]}" --clients 20 --conns 4 range "$range_key" --total "$(total 10000)" >/dev/null 2>&1
done

# jfr_summary FILE: execution samples by thread, by top frame (self time) and by the innermost
# io.etcdj frame on the stack (which of our methods the time is spent in or below).
jfr_summary() {
  jfr print --stack-depth 64 --events jdk.ExecutionSample "$1" | awk '
    /^jdk.ExecutionSample/ { n++; first = ""; own = "" }
    /sampledThread = / { t = $0; sub(/.*sampledThread = "/, "", t); sub(/".*/, "", t); gsub(/[0-9]+/, "N", t); thread[t]++ }
    /stackTrace = \[/ { in_stack = 1; next }
    in_stack && /^    [a-zA-Z]/ {
      f = $0; sub(/^ +/, "", f); sub(/\(.*/, "", f)
      if (first == "") { first = f; self[f]++ }
      if (own == "" && f ~ /^io\.etcdj\./) { own = f; ours[f]++ }
    }
    /^  \]/ { in_stack = 0; if (own == "") ours["(no io.etcdj frame: gRPC, Netty, JDK)"]++ }
    function top(title, a,   k) {
      print "\n" title
      for (k in a) printf "%7d %5.1f%%  %s\n", a[k], 100 * a[k] / n, k | "sort -rn | head -n 20"
      close("sort -rn | head -n 20")
    }
    END {
      print n " execution samples"
      top("by thread:", thread); top("by top frame (self):", self); top("by innermost io.etcdj frame:", ours)
    }'
}

for round in $(seq 1 "$rounds"); do
  echo "round $round/$rounds (load average:$(uptime | sed 's/.*load average://'))"
  for w in "${workloads[@]}"; do
    name="${w%%|*}"; args="${w#*|}"
    selected "$name" || continue
    for kind in "${kinds[@]}"; do
      profiling=""
      if [ -n "$jfr_file" ] && [ "$kind" = ours ] && [ "$name" = put-100 ] && [ "$round" -eq "$rounds" ]; then
        profiling=yes
        jcmd "${first_pid[ours]}" JFR.start name=bench settings=profile >/dev/null 2>&1 || profiling=""
      fi
      # shellcheck disable=SC2086
      run_bench "$kind" "$name" "$round" $args
      if [ -n "$profiling" ]; then
        if jcmd "${first_pid[ours]}" JFR.stop name=bench filename="$(realpath -m "$jfr_file")" >/dev/null 2>&1; then
          echo "  JFR recording written to $jfr_file"
          jfr_summary "$jfr_file" >"$jfr_file.txt" && echo "  JFR sample summary written to $jfr_file.txt"
        else
          echo "  JFR recording failed" >&2
        fi
      fi
    done
  done
done

[ -n "$results_file" ] && cp "$raw" "$results_file"

# median KIND NAME COLUMN: median over the rounds that succeeded, or "-" if none did.
median() {
  awk -F'\t' -v k="$1" -v n="$2" -v c="$3" '$1 == k && $2 == n && $c != "fail" { print $c }' "$raw" \
    | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

echo
echo "Medians of $rounds rounds (${cluster}-member clusters; etcd: ${status[etcd]}, ours: ${status[ours]}; load average at end:$(uptime | sed 's/.*load average://'))"
echo
echo "| workload | etcd req/s | ours req/s | ours/etcd | etcd p50 ms | ours p50 ms | etcd p99 ms | ours p99 ms | etcd CPU ms/1k req | ours CPU ms/1k req |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for w in "${workloads[@]}"; do
  name="${w%%|*}"
  selected "$name" || continue
  er=$(median etcd "$name" 4); orr=$(median ours "$name" 4)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$er" "$orr" "$(ratio "$orr" "$er")" \
    "$(median etcd "$name" 5)" "$(median ours "$name" 5)" "$(median etcd "$name" 6)" "$(median ours "$name" 6)" \
    "$(median etcd "$name" 7)" "$(median ours "$name" 7)"
done

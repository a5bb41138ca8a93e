#!/usr/bin/env bash
# Side-by-side benchmark: the real etcd and our server, same workloads, same machine, same run,
# measured with etcd's own Go `benchmark` tool (or our JVM one, to compare the two tools).
#
# Phases (--phases, default cold,warm):
#   cold      for every workload, round and server: a fresh cluster, measured as soon as every
#             member reports healthy (no warm-up), then stopped
#   warm      one cluster per server, warmed up (5000 puts, 10000 ranges), then every workload,
#             etcd and ours back to back, for each round
#   rss       a fresh cluster per server: resident memory per member idle, and after --rss-keys
#             distinct 256-byte keys were written
#   busy      start to healthy on a busy machine: one spinning process per core, at the servers'
#             priority, runs while each server starts (3 starts per round and server, alternating)
#   failover  (3 members) one client writes without pause; the leader is killed; the time from
#             the kill to the first write started after it that succeeds
# Besides requests/s and latency it prints the servers' CPU per request (user+system CPU of all
# members from /proc during the run, divided by the successful requests): the figure to trust on
# a busy machine. Everything it started is stopped by PID and every temporary directory removed on
# exit, also on Ctrl-C or failure.
#
# Builds nothing: run `mvn -q package -DskipTests` first (bin/etcd; bin/etcd-benchmark for
# --tool jvm); etcd's Go tool is tools/benchmark of etcd 3.4's sources, built with Go.
#
# Usage: scripts/bench-server.sh [options]
#   --phases LIST     comma-separated phases: cold, warm, rss, busy, failover (default cold,warm)
#   --rounds R        rounds per workload and server (default 3)
#   --cluster N       members per server: 1 (default) or 3
#   --scale F         multiply every workload's --total by F (default 1; 0.2 for a smoke run)
#   --tool T          go (etcd's benchmark, the default when found) or jvm (bin/etcd-benchmark)
#   --go-benchmark P  etcd's Go benchmark binary (default $ETCD_GO_BENCHMARK, or
#                     ~/.cache/etcd-tools/bin/benchmark)
#   --rss-keys N      keys written in the rss phase (default 100000)
#   --port-base P     look for free ports from P upwards (default: random in 20000-29999)
#   --etcd PATH       the real etcd binary (default /usr/bin/etcd, or $ETCD_BIN)
#   --ours PATH       our server's launcher (default bin/etcd of this checkout, or $OURS_BIN)
#   --only NAME       run only workload NAME (repeatable): put-1 put-100 range-l-1 range-l-100
#                     range-s-1 range-s-100
#   --jfr FILE        record a JFR profile of our server (first member) during put-100 of the
#                     last warm round and write it to FILE (and a summary to FILE.txt)
#   --results FILE    also write the raw per-run figures (TSV) to FILE
#   --health-timeout S  seconds to wait for a server to become healthy (default 60)
#   --run-timeout S   seconds after which one benchmark run is abandoned (default 180)
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
phases="cold,warm"
rounds=3
cluster=1
scale=1
tool=""
go_bench="${ETCD_GO_BENCHMARK:-$HOME/.cache/etcd-tools/bin/benchmark}"
rss_keys=100000
port_base=$(( 20000 + RANDOM % 10000 ))
etcd_bin="${ETCD_BIN:-/usr/bin/etcd}"
ours_bin="${OURS_BIN:-$root/bin/etcd}"
jvm_bench="$root/bin/etcd-benchmark"
etcdctl_bin="${ETCDCTL_BIN:-/usr/bin/etcdctl}"
only=()
jfr_file=""
results_file=""
health_timeout=60
run_timeout=180

die() { echo "bench-server: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --phases) phases="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --cluster) cluster="$2"; shift 2 ;;
    --scale) scale="$2"; shift 2 ;;
    --tool) tool="$2"; shift 2 ;;
    --go-benchmark) go_bench="$2"; shift 2 ;;
    --rss-keys) rss_keys="$2"; shift 2 ;;
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
[[ "$rss_keys" =~ ^[1-9][0-9]*$ ]] || die "--rss-keys must be a positive integer"
for p in ${phases//,/ }; do
  [[ "$p" =~ ^(cold|warm|rss|busy|failover)$ ]] || die "unknown phase: $p (cold, warm, rss, busy, failover)"
done
if [[ ",$phases," == *,failover,* ]] && [ "$cluster" != 3 ]; then die "the failover phase needs --cluster 3"; fi
if [ -z "$tool" ]; then
  if [ -x "$go_bench" ]; then tool=go; else
    tool=jvm
    echo "bench-server: etcd's Go benchmark not found at $go_bench (tools/benchmark of etcd's sources; see docs/benchmarks.md); using bin/etcd-benchmark" >&2
  fi
fi
case "$tool" in
  go) [ -x "$go_bench" ] || die "etcd's Go benchmark not found at $go_bench"; bench_bin="$go_bench" ;;
  jvm) "$jvm_bench" --version >/dev/null 2>&1 || die "bin/etcd-benchmark does not run; build first: mvn -q package -DskipTests"; bench_bin="$jvm_bench" ;;
  *) die "--tool must be go or jvm" ;;
esac
[ -x "$etcd_bin" ] || die "real etcd not found at $etcd_bin"
[ -x "$ours_bin" ] || die "our server launcher not found at $ours_bin"
[ -x "$etcdctl_bin" ] || die "etcdctl not found at $etcdctl_bin (needed to seed the range key)"
for t in curl timeout awk sort; do command -v "$t" >/dev/null || die "$t is required"; done

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

total() { awk -v t="$1" -v s="$scale" 'BEGIN { n = int(t * s); print (n < 1 ? 1 : n) }'; }
range_key="bench-range-key"
put_args="--key-size 8 --val-size 256 --key-space-size 100000"
# Workloads: name, then the benchmark arguments (the same for both tools).
workloads=(
  "put-1|--clients 1 --conns 1 put $put_args --total $(total 2000)"
  "put-100|--clients 100 --conns 10 put $put_args --total $(total 20000)"
  "range-l-1|--clients 1 --conns 1 range $range_key --consistency l --total $(total 2000)"
  "range-l-100|--clients 100 --conns 10 range $range_key --consistency l --total $(total 20000)"
  "range-s-1|--clients 1 --conns 1 range $range_key --consistency s --total $(total 5000)"
  "range-s-100|--clients 100 --conns 10 range $range_key --consistency s --total $(total 20000)"
)
selected() {
  [ ${#only[@]} -eq 0 ] && return 0
  local o; for o in "${only[@]}"; do [[ "$1" == "$o" ]] && return 0; done; return 1
}

declare -A endpoints first_pid member_pids started_ms healthy_ms client_urls pid_of_endpoint
# start_server KIND BIN: starts $cluster members in a fresh directory; sets endpoints[KIND],
# member_pids[KIND], first_pid[KIND] and started_ms[KIND].
start_server() {
  local kind="$1" bin="$2" i initial="" names=() peers=() clients=()
  member_pids[$kind]=""
  for i in $(seq 1 "$cluster"); do
    names+=("$kind$i")
    take_port; clients+=("$port")
    take_port; peers+=("$port")
    initial+="${initial:+,}$kind$i=http://127.0.0.1:${peers[-1]}"
  done
  local eps="" base="$work/$kind-$RANDOM$RANDOM"
  started_ms[$kind]=$(date +%s%3N)
  for i in $(seq 0 $(( cluster - 1 ))); do
    local dir="$base/${names[$i]}"
    mkdir -p "$dir"
    "$bin" --name "${names[$i]}" --data-dir "$dir/data" \
      --listen-client-urls "http://127.0.0.1:${clients[$i]}" --advertise-client-urls "http://127.0.0.1:${clients[$i]}" \
      --listen-peer-urls "http://127.0.0.1:${peers[$i]}" --initial-advertise-peer-urls "http://127.0.0.1:${peers[$i]}" \
      --initial-cluster "$initial" --initial-cluster-state new --initial-cluster-token "bench-$kind" \
      >"$dir/server.log" 2>&1 &
    pids+=($!)
    member_pids[$kind]+=" $!"
    [ "$i" -eq 0 ] && first_pid[$kind]=$!
    pid_of_endpoint["127.0.0.1:${clients[$i]}"]=$!
    eps+="${eps:+,}127.0.0.1:${clients[$i]}"
  done
  endpoints[$kind]="$eps"
  last_base[$kind]="$base"
}
declare -A last_base

stop_server() {
  # shellcheck disable=SC2086
  stop_pids ${member_pids[$1]}
  rm -rf "${last_base[$1]}"
}

# wait_healthy KIND: every member answers /health with "health":"true" within the timeout; sets
# healthy_ms[KIND] to the milliseconds from the start of the processes.
wait_healthy() {
  local kind="$1" deadline=$(( SECONDS + health_timeout )) ep healthy pid
  while [ $SECONDS -lt $deadline ]; do
    for pid in ${member_pids[$kind]}; do
      kill -0 "$pid" 2>/dev/null || { echo "$kind: member process $pid exited" >&2; describe_failure "$kind"; return 1; }
    done
    healthy=0
    for ep in ${endpoints[$kind]//,/ }; do
      curl -s -m 2 "http://$ep/health" 2>/dev/null | grep -q '"health":"true"' && healthy=$(( healthy + 1 ))
    done
    if [ "$healthy" -eq "$cluster" ]; then
      healthy_ms[$kind]=$(( $(date +%s%3N) - started_ms[$kind] ))
      return 0
    fi
    sleep 0.05
  done
  describe_failure "$kind"
  return 1
}

describe_failure() {
  local kind="$1" log
  echo "$kind: ${cluster}-member cluster did not become healthy within ${health_timeout}s. Last log lines:" >&2
  for log in "${last_base[$kind]}"/*/server.log; do
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

# rss_mb KIND: the largest resident set of KIND's members, in MB.
rss_mb() {
  local pid max=0 kb
  for pid in ${member_pids[$1]}; do
    kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
    [ -n "$kb" ] && [ "$kb" -gt "$max" ] && max=$kb
  done
  awk -v k="$max" 'BEGIN { printf "%.0f", k / 1024 }'
}

# bench KIND ARGS...: runs the tool against KIND's endpoints; output in $out.
bench() {
  local kind="$1"; shift
  # shellcheck disable=SC2068
  timeout "$run_timeout" "$bench_bin" --endpoints "${endpoints[$kind]}" $@
}

# parse OUT TOTAL: prints "rps p50_ms p99_ms ok" from either tool's report, or nothing.
parse() {
  local out="$1" total="$2"
  if [ "$tool" = jvm ]; then
    local line; line=$(grep '^RESULT ' "$out" | tail -n 1)
    [ -n "$line" ] || return
    sed -E 's/.* ok=([0-9]+).* rps=([0-9.]+).* p50_ms=([0-9.]+).* p99_ms=([0-9.]+).*/\2 \3 \4 \1/' <<<"$line"
  else
    # etcd's report: "Requests/sec:", "50% in 0.0052 secs.", and an "Error distribution:" section
    # of "[count]<tab>error" lines.
    awk -v total="$total" '
      /Requests\/sec:/ { rps = $2 }
      /^ *50% in / { p50 = $3 * 1000 }
      /^ *99% in / { p99 = $3 * 1000 }
      /^Error distribution:/ { errs = 1; next }
      errs && /^ *\[[0-9]+\]/ { n = $1; gsub(/[^0-9]/, "", n); failed += n }
      END { if (rps != "") printf "%s %.3f %.3f %d\n", rps, p50, p99, total - failed }' "$out"
  fi
}

raw="$work/raw.tsv"
: >"$raw"
# run_bench PHASE KIND NAME ROUND ARGS...: one measured run; appends
# "phase kind name round rps p50 p99 cpu-us-per-request" to raw.
run_bench() {
  local phase="$1" kind="$2" name="$3" round="$4"; shift 4
  local out="$work/$phase-$kind-$name-$round.out" cpu_before cpu_after total
  total=$(sed -E 's/.*--total ([0-9]+).*/\1/' <<<"$*")
  cpu_before=$(cpu_ticks "$kind")
  bench "$kind" "$@" >"$out" 2>&1
  local rc=$?
  cpu_after=$(cpu_ticks "$kind")
  local fields; fields=$(parse "$out" "$total")
  local rps p50 p99 ok
  read -r rps p50 p99 ok <<<"$fields"
  if [ $rc -ne 0 ] || [ -z "$fields" ] || [ "$ok" -lt "$total" ]; then
    echo "  $phase $kind $name round $round: FAILED (exit $rc, ${ok:-0}/$total ok) $(grep -m1 -iE 'rpc error|error|exception' "$out" | cut -c1-160)" >&2
    printf '%s\t%s\t%s\t%s\tfail\tfail\tfail\tfail\n' "$phase" "$kind" "$name" "$round" >>"$raw"
    return 1
  fi
  # Server CPU per request does not depend on how much CPU other processes left us, unlike req/s.
  local cpu
  cpu=$(awk -v t=$(( cpu_after - cpu_before )) -v hz="$clk_tck" -v n="$ok" 'BEGIN { printf "%.0f", t / hz / n * 1e6 }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$phase" "$kind" "$name" "$round" "$rps" "$p50" "$p99" "$cpu" >>"$raw"
  printf '  %-5s %-5s %-12s round %s: %10.1f req/s  p50 %8.3f ms  p99 %8.3f ms  server CPU %6s us/req\n' \
    "$phase" "$kind" "$name" "$round" "$rps" "$p50" "$p99" "$cpu"
}

value=$(head -c 256 /dev/zero | tr '\0' 'v')
seed() {
  ETCDCTL_API=3 timeout 30 "$etcdctl_bin" --endpoints "${endpoints[$1]}" put "$range_key" "$value" >/dev/null \
    || echo "$1: could not seed the range key" >&2
}

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

kinds=(etcd ours)
bin_of() { if [ "$1" = etcd ]; then echo "$etcd_bin"; else echo "$ours_bin"; fi; }
declare -A start_times
notes="$work/notes.txt"
: >"$notes"

phase_cold() {
  local round w name args kind
  for round in $(seq 1 "$rounds"); do
    echo "cold round $round/$rounds (load average:$(uptime | sed 's/.*load average://'))"
    for w in "${workloads[@]}"; do
      name="${w%%|*}"; args="${w#*|}"
      selected "$name" || continue
      for kind in "${kinds[@]}"; do
        start_server "$kind" "$(bin_of "$kind")"
        if wait_healthy "$kind"; then
          start_times[$kind]+=" ${healthy_ms[$kind]}"
          leader_first "$kind"
          [[ "$name" == range-* ]] && seed "$kind"
          # shellcheck disable=SC2086
          run_bench cold "$kind" "$name" "$round" $args
        fi
        stop_server "$kind"
      done
    done
  done
}

phase_warm() {
  local kind round w name args live=()
  for kind in "${kinds[@]}"; do
    start_server "$kind" "$(bin_of "$kind")"
    if wait_healthy "$kind"; then
      live+=("$kind")
      start_times[$kind]+=" ${healthy_ms[$kind]}"
      leader_first "$kind"
      seed "$kind"
      # Warm-up, not measured: lets the JVM compile its hot paths; the same is done for etcd.
      bench "$kind" --clients 20 --conns 4 put $put_args --total "$(total 5000)" >/dev/null 2>&1
      bench "$kind" --clients 20 --conns 4 range "$range_key" --total "$(total 10000)" >/dev/null 2>&1
    else
      stop_server "$kind"
    fi
  done
  for round in $(seq 1 "$rounds"); do
    echo "warm round $round/$rounds (load average:$(uptime | sed 's/.*load average://'))"
    for w in "${workloads[@]}"; do
      name="${w%%|*}"; args="${w#*|}"
      selected "$name" || continue
      for kind in "${live[@]}"; do
        local profiling=""
        if [ -n "$jfr_file" ] && [ "$kind" = ours ] && [ "$name" = put-100 ] && [ "$round" -eq "$rounds" ]; then
          profiling=yes
          jcmd "${first_pid[ours]}" JFR.start name=bench settings=profile >/dev/null 2>&1 || profiling=""
        fi
        # shellcheck disable=SC2086
        run_bench warm "$kind" "$name" "$round" $args
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
  for kind in "${live[@]}"; do stop_server "$kind"; done
}

phase_rss() {
  local kind idle loaded
  for kind in "${kinds[@]}"; do
    start_server "$kind" "$(bin_of "$kind")"
    if wait_healthy "$kind"; then
      sleep 5
      idle=$(rss_mb "$kind")
      bench "$kind" --clients 100 --conns 10 put --key-size 8 --val-size 256 --sequential-keys \
        --key-space-size "$rss_keys" --total "$rss_keys" >/dev/null 2>&1 || echo "$kind: loading $rss_keys keys failed" >&2
      sleep 5
      loaded=$(rss_mb "$kind")
      printf '%s\t%s\t%s\n' "$kind" "$idle" "$loaded" >>"$work/rss.tsv"
      echo "  rss   $kind: idle $idle MB, after $rss_keys keys $loaded MB (largest member)"
    fi
    stop_server "$kind"
  done
}

# is_leader ENDPOINT: the member at ENDPOINT reports itself leader (its /v3 status through etcdctl).
is_leader() {
  ETCDCTL_API=3 timeout 5 "$etcdctl_bin" --endpoints "$1" endpoint status -w json 2>/dev/null \
    | grep -qE '"leader":([0-9]+).*"member_id":\1[,}]|"member_id":([0-9]+).*"leader":\2[,}]'
}

# leader_first KIND: puts KIND's leader first in endpoints[KIND]. etcd's benchmark sends every
# request of a run to the first endpoint, so a run measures the leader or a follower as the
# election fell (a linearizable read from a follower costs a round trip more: 1.3-1.4x apart on
# three members), and the two servers were often measured on different roles. etcd's own
# performance figures target the leader for one client; so do these, for every row.
leader_first() {
  local kind="$1" ep first="" rest=""
  [ "$cluster" -gt 1 ] || return 0
  for ep in ${endpoints[$kind]//,/ }; do
    if [ -z "$first" ] && is_leader "$ep"; then
      first="$ep"
    else
      rest+=",$ep"
    fi
  done
  if [ -z "$first" ]; then
    echo "$kind: no member reports itself leader; endpoints left in start order" >&2
    return 0
  fi
  endpoints[$kind]="$first$rest"
}

# leader_pid KIND: the PID of KIND's leader, whatever the order of endpoints[KIND].
leader_pid() {
  local ep
  for ep in ${endpoints[$1]//,/ }; do
    if is_leader "$ep"; then
      echo "${pid_of_endpoint[$ep]}"; return 0
    fi
  done
  return 1
}

# phase_busy: each server started 3 times per round, alternating, while one busy loop per core runs
# at the servers' priority (as on a machine whose cores other work keeps busy); start to healthy.
declare -A busy_times
busy_loops=0
phase_busy() {
  local round kind i burners=()
  busy_loops=$(getconf _NPROCESSORS_ONLN)
  for i in $(seq 1 "$busy_loops"); do
    ( while :; do :; done ) &
    burners+=($!); pids+=($!)
  done
  echo "busy: $busy_loops busy loops (load average:$(uptime | sed 's/.*load average://'))"
  for round in $(seq 1 $(( rounds * 3 ))); do
    for kind in "${kinds[@]}"; do
      start_server "$kind" "$(bin_of "$kind")"
      if wait_healthy "$kind"; then
        busy_times[$kind]+=" ${healthy_ms[$kind]}"
        echo "  busy  $kind start $round: healthy after ${healthy_ms[$kind]} ms"
      fi
      stop_server "$kind"
    done
  done
  stop_pids "${burners[@]}"
}

phase_failover() {
  local kind round victim t_kill t_ok
  for round in $(seq 1 "$rounds"); do
    for kind in "${kinds[@]}"; do
      start_server "$kind" "$(bin_of "$kind")"
      if wait_healthy "$kind" && victim=$(leader_pid "$kind"); then
        # One writer, every member as an endpoint; write until a put after the kill succeeds.
        local eps="${endpoints[$kind]}" log="$work/failover-$kind-$round.log"
        # Each success is logged as "started finished" (ms): a put in flight at the kill does not count.
        ( while true; do
            local t0; t0=$(date +%s%3N)
            if ETCDCTL_API=3 timeout 3 "$etcdctl_bin" --endpoints "$eps" --command-timeout 2s put failover-key v >/dev/null 2>&1; then
              echo "$t0 $(date +%s%3N)"
            fi
          done ) >"$log" 2>/dev/null &
        local writer=$!
        sleep 2
        t_kill=$(date +%s%3N)
        { kill -KILL "$victim"; wait "$victim"; } 2>/dev/null
        t_ok=""
        for _ in $(seq 1 600); do
          t_ok=$(awk -v k="$t_kill" '$1 > k { print $2; exit }' "$log")
          [ -n "$t_ok" ] && break
          sleep 0.05
        done
        { kill "$writer"; wait "$writer"; } 2>/dev/null
        if [ -n "$t_ok" ]; then
          printf '%s\t%s\t%s\n' "$kind" "$round" $(( t_ok - t_kill )) >>"$work/failover.tsv"
          echo "  failover $kind round $round: writes resumed $(( t_ok - t_kill )) ms after the leader was killed"
        else
          echo "  failover $kind round $round: writes did not resume within 30 s" >&2
        fi
      fi
      stop_server "$kind"
    done
  done
}

echo "bench-server: ${cluster}-member clusters, phases $phases, $rounds rounds, scale $scale, tool $tool, $(nproc) CPUs, load average:$(uptime | sed 's/.*load average://')"
for p in ${phases//,/ }; do "phase_$p"; done

[ -n "$results_file" ] && cp "$raw" "$results_file"

# median LIST...: the median of the numbers given, or "-".
median_of() {
  printf '%s\n' "$@" | grep -E '^[0-9.]+$' | sort -g \
    | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# median PHASE KIND NAME COLUMN: median over the rounds that succeeded, or "-" if none did.
median() {
  # shellcheck disable=SC2046
  median_of $(awk -F'\t' -v p="$1" -v k="$2" -v n="$3" -v c="$4" '$1 == p && $2 == k && $3 == n && $c != "fail" { print $c }' "$raw")
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

echo
echo "Medians of $rounds rounds, ${cluster}-member clusters, measured with $( [ "$tool" = go ] && echo "etcd's Go benchmark" || echo bin/etcd-benchmark ) (load average at end:$(uptime | sed 's/.*load average://'))"
for p in cold warm; do
  [[ ",$phases," == *,$p,* ]] || continue
  echo
  echo "$p:"
  echo
  echo "| workload | etcd req/s | ours req/s | ours/etcd | etcd p50 ms | ours p50 ms | etcd p99 ms | ours p99 ms | etcd CPU us/req | ours CPU us/req |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for w in "${workloads[@]}"; do
    name="${w%%|*}"
    selected "$name" || continue
    er=$(median "$p" etcd "$name" 5); orr=$(median "$p" ours "$name" 5)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$er" "$orr" "$(ratio "$orr" "$er")" \
      "$(median "$p" etcd "$name" 6)" "$(median "$p" ours "$name" 6)" "$(median "$p" etcd "$name" 7)" "$(median "$p" ours "$name" 7)" \
      "$(median "$p" etcd "$name" 8)" "$(median "$p" ours "$name" 8)"
  done
done
if [ -n "${start_times[etcd]:-}${start_times[ours]:-}" ]; then
  echo
  # shellcheck disable=SC2086
  echo "start to healthy (median of $(wc -w <<<"${start_times[ours]:-}") starts): etcd $(median_of ${start_times[etcd]:-}) ms, ours $(median_of ${start_times[ours]:-}) ms"
fi
if [ -n "${busy_times[etcd]:-}${busy_times[ours]:-}" ]; then
  echo
  # shellcheck disable=SC2086
  echo "start to healthy on a busy machine ($busy_loops busy loops; median of $(wc -w <<<"${busy_times[ours]:-}") starts): etcd $(median_of ${busy_times[etcd]:-}) ms, ours $(median_of ${busy_times[ours]:-}) ms"
fi
if [ -f "$work/rss.tsv" ]; then
  echo
  echo "| resident memory per member | etcd MB | ours MB | ours/etcd |"
  echo "|---|---:|---:|---:|"
  ei=$(awk '$1 == "etcd" { print $2 }' "$work/rss.tsv"); oi=$(awk '$1 == "ours" { print $2 }' "$work/rss.tsv")
  el=$(awk '$1 == "etcd" { print $3 }' "$work/rss.tsv"); ol=$(awk '$1 == "ours" { print $3 }' "$work/rss.tsv")
  printf '| idle | %s | %s | %s |\n' "${ei:--}" "${oi:--}" "$(ratio "${oi:--}" "${ei:--}")"
  printf '| after %s keys of 256 B | %s | %s | %s |\n' "$rss_keys" "${el:--}" "${ol:--}" "$(ratio "${ol:--}" "${el:--}")"
fi
if [ -f "$work/failover.tsv" ]; then
  echo
  # shellcheck disable=SC2046
  echo "writes resume after the leader is killed (median of rounds): etcd $(median_of $(awk '$1 == "etcd" { print $3 }' "$work/failover.tsv")) ms, ours $(median_of $(awk '$1 == "ours" { print $3 }' "$work/failover.tsv")) ms"
fi

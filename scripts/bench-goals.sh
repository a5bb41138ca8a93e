#!/usr/bin/env bash
# The performance goals, measured in one run: scripts/bench-server.sh on one member (cold, warm,
# resident memory, start on a busy machine) and then on three members (cold, warm, failover), the
# real etcd and ours side by side with etcd's own Go benchmark; then one table of every row against its goal:
#   throughput   cold >= 1.0x etcd, warm >= 1.3x etcd (medians of the rounds)
#   CPU          server CPU per request <= etcd's
#   latency      one client's put, p50, <= etcd's (one and three members, warm)
#   memory       idle resident memory <= 48 MB; with --rss-keys keys <= 1.2x etcd's
#   start        one member healthy within 2x etcd's time, on a quiet machine and on one whose
#                cores are kept busy; three started at once within 1 s
#   failover     writes resume after the leader is killed no later than with etcd
# Builds nothing (run `mvn -q package -DskipTests` first). Needs what bench-server.sh needs.
#
# Usage: scripts/bench-goals.sh [--rounds R] [--rss-keys N] [--out DIR] [bench-server.sh options...]
#        scripts/bench-goals.sh --from DIR
#   --rounds R     rounds per workload and server (default 3)
#   --rss-keys N   keys written before the second memory reading (default 1000000)
#   --out DIR      keep both runs' reports and raw figures in DIR (default: a temporary directory)
#   --from DIR     measure nothing: print the goals table again from a run kept with --out DIR
# Other options (--etcd, --ours, --go-benchmark, --only, --scale, ...) go to both runs.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
rss_keys=1000000
out=""
from=""
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --rss-keys) rss_keys="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --from) from="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) pass+=("$1"); shift ;;
  esac
done
if [ -n "$from" ]; then
  [ -s "$from/one.tsv" ] && [ -s "$from/one.txt" ] || { echo "bench-goals: $from holds no run kept with --out" >&2; exit 2; }
  out="$from"
  rounds=$(sed -n 's/^Medians of \([0-9]*\) rounds.*/\1/p' "$out/one.txt" | head -n 1)
  rss_keys=$(sed -n 's/^| after \([0-9]*\) keys.*/\1/p' "$out/one.txt" | head -n 1)
else
  if [ -z "$out" ]; then
    out=$(mktemp -d -t bench-goals.XXXXXX)
    trap 'rm -rf "$out"' EXIT
  fi
  mkdir -p "$out" || { echo "bench-goals: cannot create $out" >&2; exit 2; }

  echo "bench-goals: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, java: $(java -version 2>&1 | head -n 1)"
  "$root/scripts/bench-server.sh" --cluster 1 --phases cold,warm,rss,busy --rounds "$rounds" --rss-keys "$rss_keys" \
    --results "$out/one.tsv" "${pass[@]}" | tee "$out/one.txt" || exit $?
  echo
  "$root/scripts/bench-server.sh" --cluster 3 --phases cold,warm,failover --rounds "$rounds" \
    --results "$out/three.tsv" "${pass[@]}" | tee "$out/three.txt" || exit $?
fi

# med FILE PHASE KIND NAME COLUMN: the median over the rounds that succeeded, or "-".
med() {
  awk -F'\t' -v p="$2" -v k="$3" -v n="$4" -v c="$5" '$1 == p && $2 == k && $3 == n && $c != "fail" { print $c }' "$1" \
    | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# mark VALUE OP LIMIT: "yes" or "no" (or "-" without a value).
mark() {
  awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
    if (v == "-" || v == "" || v == "n/a") { print "-"; exit }
    ok = (op == ">=") ? (v + 0 >= l + 0) : (v + 0 <= l + 0); print ok ? "yes" : "no" }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

echo
echo "Against the goals (medians of $rounds rounds; ratio = ours / etcd):"
echo
echo "| members | workload | phase | ours/etcd req/s | goal | met | CPU us/req etcd / ours | CPU <= etcd |"
echo "|---|---|---|---:|---:|---|---:|---|"
for members in 1 3; do
  f="$out/one.tsv"; [ "$members" = 3 ] && f="$out/three.tsv"
  [ -s "$f" ] || continue
  for name in put-1 put-100 range-l-1 range-l-100 range-s-1 range-s-100; do
    for phase in cold warm; do
      er=$(med "$f" "$phase" etcd "$name" 5); orr=$(med "$f" "$phase" ours "$name" 5)
      [ "$er" = "-" ] && [ "$orr" = "-" ] && continue
      goal=1.0; [ "$phase" = warm ] && goal=1.3
      r=$(ratio "$orr" "$er")
      ec=$(med "$f" "$phase" etcd "$name" 8); oc=$(med "$f" "$phase" ours "$name" 8)
      printf '| %s | %s | %s | %s | %s | %s | %s / %s | %s |\n' "$members" "$name" "$phase" "$r" "$goal" \
        "$(mark "$r" '>=' "$goal")" "$ec" "$oc" "$( [ "$ec" = - ] || [ "$oc" = - ] && echo - || mark "$oc" '<=' "$ec")"
    done
  done
done

line() { grep -m 1 "$1" "$2" 2>/dev/null; }
echo
idle_e=$(line '^| idle |' "$out/one.txt" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
idle_o=$(line '^| idle |' "$out/one.txt" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
keys_e=$(line '^| after ' "$out/one.txt" | awk -F'|' '{ gsub(/ /, "", $3); print $3 }')
keys_o=$(line '^| after ' "$out/one.txt" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
keys_r=$(ratio "${keys_o:--}" "${keys_e:--}")
start1=$(line '^start to healthy (median' "$out/one.txt" | sed -E 's/.*etcd ([0-9.-]+) ms, ours ([0-9.-]+) ms.*/\1 \2/')
busy1=$(line '^start to healthy on a busy machine' "$out/one.txt" | sed -E 's/.*etcd ([0-9.-]+) ms, ours ([0-9.-]+) ms.*/\1 \2/')
start3=$(line '^start to healthy (median' "$out/three.txt" | sed -E 's/.*etcd ([0-9.-]+) ms, ours ([0-9.-]+) ms.*/\1 \2/')
fail=$(line '^writes resume' "$out/three.txt" | sed -E 's/.*etcd ([0-9.-]+) ms, ours ([0-9.-]+) ms.*/\1 \2/')
echo "| goal | etcd | ours | met |"
echo "|---|---:|---:|---|"
for members in 1 3; do
  f="$out/one.tsv"; [ "$members" = 3 ] && f="$out/three.tsv"
  [ -s "$f" ] || continue
  pe=$(med "$f" warm etcd put-1 6); po=$(med "$f" warm ours put-1 6)
  [ "$pe" = "-" ] && [ "$po" = "-" ] && continue
  echo "| one client's put p50, $members member(s), warm <= etcd | $pe ms | $po ms | $([ "$pe" = - ] && echo - || mark "$po" '<=' "$pe") |"
done
echo "| idle resident memory <= 48 MB | ${idle_e:--} MB | ${idle_o:--} MB | $(mark "${idle_o:--}" '<=' 48) |"
echo "| resident memory with $rss_keys keys <= 1.2x etcd | ${keys_e:--} MB | ${keys_o:--} MB ($keys_r x) | $(mark "$keys_r" '<=' 1.2) |"
read -r s1e s1o <<<"${start1:-- -}"
read -r s3e s3o <<<"${start3:-- -}"
read -r b1e b1o <<<"${busy1:-- -}"
read -r fe fo <<<"${fail:-- -}"
s1limit=$(awk -v e="$s1e" 'BEGIN { if (e == "-" || e == "") print "-"; else print 2 * e }')
echo "| one member serves within 2x etcd's time from start | ${s1e} ms | ${s1o} ms | $(mark "$s1o" '<=' "$s1limit") |"
b1limit=$(awk -v e="$b1e" 'BEGIN { if (e == "-" || e == "") print "-"; else print 2 * e }')
echo "| one member serves within 2x etcd's time from start, busy machine | ${b1e} ms | ${b1o} ms | $(mark "$b1o" '<=' "$b1limit") |"
echo "| three members started at once serve within 1 s | ${s3e} ms | ${s3o} ms | $(mark "$s3o" '<=' 1000) |"
echo "| writes resume after the leader is killed <= etcd | ${fe} ms | ${fo} ms | $(mark "$fo" '<=' "$fe") |"

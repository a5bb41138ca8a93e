#!/usr/bin/env bash
# How long a compaction of many revisions holds up writes: starts one member of the checkout given
# (default: this one) on 127.0.0.1 (free ports, temporary data dir, stopped on exit), writes
# REVISIONS revisions (default 100000) over 1000 keys with bin/etcd-benchmark, then compacts all
# of them while a probe puts one key after another with the Go etcdctl, and prints the probe's
# put latencies (median, slowest) during the compaction, the compact call's own latency, and the
# member's pause histograms (sum and count of etcd's index and backend-batch compaction pauses).
# A checkout from before batched compaction shows the pause of one compaction inside one apply;
# this one shows a batch (--compaction-batch-limit revisions) at most. Extra arguments go to the
# member (e.g. --compaction-batch-limit=100). The probe starts a process per put, so its floor is
# a process start (some milliseconds). Build first: mvn -q package -DskipTests.
# Usage: scripts/compaction-pause.sh [checkout] [revisions] [member flags...]
set -euo pipefail
root="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
revisions="${2:-100000}"
shift $(( $# > 2 ? 2 : $# ))
etcdctl="${REAL_ETCDCTL:-/usr/bin/etcdctl}"
[ -x "$etcdctl" ] || { echo "Error: $etcdctl not found (the Debian package etcd-client)" >&2; exit 1; }
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')
read -r cport pport <<<"$ports"
dir=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
"$root/bin/etcd" --name m1 --data-dir "$dir/m1" \
  --listen-client-urls "http://127.0.0.1:$cport" --advertise-client-urls "http://127.0.0.1:$cport" \
  --listen-peer-urls "http://127.0.0.1:$pport" --initial-advertise-peer-urls "http://127.0.0.1:$pport" \
  --initial-cluster "m1=http://127.0.0.1:$pport" "$@" >"$dir/member.log" 2>&1 &
pid=$!
export ETCDCTL_API=3
ep="127.0.0.1:$cport"
for _ in $(seq 100); do "$etcdctl" --endpoints "$ep" endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
"$root/bin/etcd-benchmark" put --endpoints "$ep" --total "$revisions" --key-space-size 1000 --val-size 64 \
  --clients 32 --conns 4 >/dev/null
rev=$("$etcdctl" --endpoints "$ep" put probe 0 -w json | python3 -c 'import json,sys; print(json.load(sys.stdin)["header"]["revision"])')
probe() {
  while [ ! -f "$dir/stop" ]; do
    s=$(date +%s%N); "$etcdctl" --endpoints "$ep" put probe x >/dev/null; e=$(date +%s%N)
    echo "$s $(( (e - s) / 1000000 ))"
  done >"$dir/probe"
}
probe &
probe_pid=$!
sleep 1
cs=$(date +%s%N)
"$etcdctl" --endpoints "$ep" compact "$rev" >/dev/null
ce=$(date +%s%N)
sleep 3
touch "$dir/stop"
wait "$probe_pid"
python3 - "$dir/probe" "$cs" "$ce" "$rev" <<'PY'
import statistics, sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
cs, ce, rev = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
before = [ms for s, ms in rows if s + ms * 1_000_000 < cs]
during = [ms for s, ms in rows if s + ms * 1_000_000 >= cs]
print(f"compacted {rev} revisions; compact call {(ce - cs) / 1e6:.0f} ms")
print(f"probe puts before: n={len(before)} median={statistics.median(before):.0f} ms slowest={max(before)} ms")
print(f"probe puts from the compaction on (3 s): n={len(during)} median={statistics.median(during):.0f} ms slowest={max(during)} ms")
slow = sorted(((ms, (s - cs) / 1e6) for s, ms in rows if s + ms * 1_000_000 >= cs), reverse=True)[:3]
print("slowest three from the compaction on: " + ", ".join(f"{ms} ms (started at {at:+.0f} ms)" for ms, at in slow))
PY
# the member's own account: etcd's histograms of the index compaction's pause and of each
# backend batch's pause (one batch, the whole compaction, before batching)
curl -s "http://$ep/metrics" | grep -E '^etcd_debugging_mvcc_(index_compaction_pause|db_compaction_pause)_duration_milliseconds_(sum|count)' || true
grep -o '"msg":"finished scheduled compaction"[^}]*' "$dir/member.log" || true

#!/usr/bin/env bash
# etcd's lease checkpoint scenario on real processes, for any etcd binary (default: this
# checkout's bin/etcd; /usr/bin/etcd is the real etcd 3.4): three members on 127.0.0.1 (free ports,
# temporary data dirs, all stopped on exit) with --experimental-enable-lease-checkpoint, a lease of
# TTL seconds (default 600) granted, a wait of WAIT seconds (default 315: past the first checkpoint
# at etcd's 5-minute interval), then the leader is killed (SIGKILL) and the new leader is asked for
# the lease's TTL. With checkpoints the answer is what was left at the checkpoint (about TTL-300);
# without them, the full TTL again. Takes WAIT seconds and a little more.
# Usage: scripts/lease-checkpoint-compare.sh [etcd-binary] [ttl] [wait] [extra member flags...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
etcd="${1:-$root/bin/etcd}"
ttl="${2:-600}"
wait_s="${3:-315}"
shift $(( $# > 3 ? 3 : $# ))
etcdctl="${REAL_ETCDCTL:-/usr/bin/etcdctl}"
export ETCDCTL_API=3
read -r -a ports <<<"$(python3 -c 'import socket
s=[socket.socket() for _ in range(6)]
[x.bind(("127.0.0.1",0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')"
dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
cluster="m1=http://127.0.0.1:${ports[1]},m2=http://127.0.0.1:${ports[3]},m3=http://127.0.0.1:${ports[5]}"
for i in 0 1 2; do
  c=${ports[$((2 * i))]} p=${ports[$((2 * i + 1))]}
  "$etcd" --name "m$((i + 1))" --data-dir "$dir/m$((i + 1))" \
    --listen-client-urls "http://127.0.0.1:$c" --advertise-client-urls "http://127.0.0.1:$c" \
    --listen-peer-urls "http://127.0.0.1:$p" --initial-advertise-peer-urls "http://127.0.0.1:$p" \
    --initial-cluster "$cluster" --initial-cluster-token lease-cp --experimental-enable-lease-checkpoint \
    "$@" >"$dir/m$((i + 1)).log" 2>&1 &
  pids+=($!)
done
eps="127.0.0.1:${ports[0]},127.0.0.1:${ports[2]},127.0.0.1:${ports[4]}"
for _ in $(seq 150); do "$etcdctl" --endpoints "$eps" endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
id=$("$etcdctl" --endpoints "$eps" lease grant "$ttl" | awk '{print $2}')
echo "lease $id granted with TTL $ttl s; waiting $wait_s s"
sleep "$wait_s"
leader_ep() {
  "$etcdctl" --endpoints "$eps" endpoint status -w json 2>/dev/null | python3 -c '
import json, sys
for s in json.load(sys.stdin):
    if s.get("Status", {}).get("leader") and s["Status"]["leader"] == s["Status"]["header"]["member_id"]:
        print(s["Endpoint"])'
}
old=$(leader_ep)
echo "before: leader $old says $("$etcdctl" --endpoints "$old" lease timetolive "$id")"
for i in 0 1 2; do
  [ "127.0.0.1:${ports[$((2 * i))]}" = "$old" ] && kill -9 "${pids[$i]}"
done
rest=$(echo "$eps" | tr ',' '\n' | grep -v "^$old\$" | paste -sd,)
new=""
for _ in $(seq 100); do
  new=$(eps=$rest; "$etcdctl" --endpoints "$rest" endpoint status -w json 2>/dev/null | python3 -c '
import json, sys
for s in json.load(sys.stdin):
    if s.get("Status", {}).get("leader") and s["Status"]["leader"] == s["Status"]["header"]["member_id"]:
        print(s["Endpoint"])' || true)
  [ -n "$new" ] && break
  sleep 0.2
done
echo "after killing the leader: new leader $new says $("$etcdctl" --endpoints "$new" lease timetolive "$id")"

#!/usr/bin/env bash
# Overload: one member under many clients writing large values as fast as it answers (etcd's
# `benchmark put` shape: each client one request at a time, ten clients a connection), /health
# probed every 250 ms, resident memory sampled every 100 ms, every acknowledged key read back.
# Runs OverloadIT with its long shape, each server in turn on the same machine, and prints one
# line per server (req/s, errors by status and text, /health answered, peak RSS, lost writes).
#   scripts/overload.sh                                   # bin/etcd and etcd 3.4, 1000 clients x 64 KiB, 60 s
#   scripts/overload.sh --clients 2000 --seconds 120 --servers bin
#   scripts/overload.sh --slow-disk-ms 50                 # data dirs on powerfs, every fsync 50 ms late
# Options: --clients N  --seconds S  --value-bytes B  --servers bin,etcd,ours (ours: the packaged
#          server with -Xmx2g)  --slow-disk-ms MS (needs /dev/fuse, fusermount3, gcc, libfuse3-dev)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
clients=1000 seconds=60 value_bytes=65536 servers=bin,etcd slow_ms=0
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) clients="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --value-bytes) value_bytes="$2"; shift 2 ;;
    --servers) servers="$2"; shift 2 ;;
    --slow-disk-ms) slow_ms="$2"; shift 2 ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done

props=(-Doverload.clients="$clients" -Doverload.seconds="$seconds" -Doverload.valueBytes="$value_bytes"
       -Doverload.servers="$servers")
work="$(mktemp -d -t overload.XXXXXX)"
powerfs_pid=""
cleanup() {
  if [ -n "$powerfs_pid" ]; then
    fusermount3 -u "$work/mnt" 2>/dev/null || fusermount3 -u -z "$work/mnt" 2>/dev/null || true
    kill "$powerfs_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ "$slow_ms" != 0 ]; then
  # the power-loss suite's FUSE filesystem: a passthrough whose every fsync waits --delay ms
  gcc -O2 -Wall -o "$work/powerfs" "$root/robustness/src/main/c/powerfs.c" $(pkg-config --cflags --libs fuse3)
  mkdir -p "$work/backing" "$work/mnt"
  "$work/powerfs" --control "$work/control" --delay "$slow_ms" "$work/backing" "$work/mnt" -f >"$work/powerfs.log" 2>&1 &
  powerfs_pid=$!
  for _ in $(seq 100); do mountpoint -q "$work/mnt" && break; sleep 0.1; done
  mountpoint -q "$work/mnt" || { cat "$work/powerfs.log" >&2; exit 1; }
  props+=(-Doverload.dataRoot="$work/mnt")
fi

cd "$root"
rm -f etcd-server/target/overload-results.txt
mvn -q -o verify -pl etcd-server -am -Dtest=NONE -Dit.test='OverloadIT#manyClients*' \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false "${props[@]}" >"$work/mvn.log" 2>&1 \
  && status=0 || status=$?
cat etcd-server/target/overload-results.txt 2>/dev/null || true
if [ "$status" != 0 ]; then
  grep -E "FAIL|AssertionFailed|expected" "$work/mvn.log" | head -20 >&2
fi
exit "$status"

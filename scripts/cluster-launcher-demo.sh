#!/usr/bin/env bash
# The etcd dev guide's local-cluster session (goreman + Procfile), run with cluster-launcher:
# start 3 members, write, stop the second member, write and read on the first, fail to read on
# the stopped one, restart it and read the key there, then stop and clean up.
#
# Usage: scripts/cluster-launcher-demo.sh [CLUSTER_FILE]
#   CLUSTER_FILE defaults to the built-in cluster (127.0.0.1:2379/22379/32379).
#   ETCDCTL (default: etcdctl on the PATH) is the etcdctl to use; ETCD_BIN picks the server.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launcher="$root/bin/cluster-launcher"
etcdctl="${ETCDCTL:-etcdctl}"
file_args=()
[ $# -ge 1 ] && file_args=(-f "$1")

run() { echo "\$ $*"; "$@"; }
cleanup() { "$launcher" clean "${file_args[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT

run "$launcher" up --detach "${file_args[@]}"
eval "$("$launcher" env "${file_args[@]}")"
IFS=, read -r -a endpoints <<<"$ETCDCTL_ENDPOINTS"
first="${endpoints[0]}"
second="${endpoints[1]}"
unset ETCDCTL_ENDPOINTS # etcdctl refuses --endpoints while the variable is set
second_name=$("$launcher" status "${file_args[@]}" | awk -F'|' -v url="$second" '$5 ~ url {gsub(/ /, "", $2); print $2}')

run "$etcdctl" --write-out=table --endpoints="$first" member list
run "$etcdctl" --endpoints="$first" put foo bar
run "$launcher" stop "$second_name" "${file_args[@]}"
run "$etcdctl" --endpoints="$first" put key hello
run "$etcdctl" --endpoints="$first" get key
echo "# reading from the stopped member fails:"
run "$etcdctl" --endpoints="$second" --dial-timeout=2s --command-timeout=3s get key || true
run "$launcher" restart "$second_name" "${file_args[@]}"
run "$etcdctl" --endpoints="$second" get key
run "$launcher" status "${file_args[@]}"
run "$launcher" stop "${file_args[@]}"

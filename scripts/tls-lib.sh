#!/usr/bin/env bash
# Shared by scripts/tls-*.sh (source it; do not run it). Starts etcd members in a temporary
# directory, remembers their PIDs, and on exit stops exactly those and removes the directory.
#
# Environment:
#   ETCD_BIN      etcd server to run (default: etcd on PATH; bin/etcd runs ours)
#   ETCDCTL_BIN   etcdctl to use (default: etcdctl on PATH)
#   CERTS_BIN     etcd-certs launcher (default: bin/etcd-certs of this checkout)
#   PORT_BASE     first port to use; each script has its own default in 23000-23999
#   KEEP_TMP=1    keep the temporary directory (certificates, logs) for inspection
set -euo pipefail

TLS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ETCD_BIN="${ETCD_BIN:-etcd}"
ETCDCTL_BIN="${ETCDCTL_BIN:-etcdctl}"
CERTS_BIN="${CERTS_BIN:-$TLS_ROOT/bin/etcd-certs}"
export ETCDCTL_API=3

WORK="$(mktemp -d)"
PIDS=()

cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ "${KEEP_TMP:-0}" = "1" ]; then
    echo "kept $WORK"
  else
    rm -rf "$WORK"
  fi
  if [ "$status" -ne 0 ]; then
    echo "FAILED (exit $status)" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '\n==> %s\n' "$*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

need() {
  command -v "$1" >/dev/null 2>&1 || fail "$1 not found (set ${2:-PATH})"
}

# start_member NAME ARGS... : runs ETCD_BIN in WORK with its log in WORK/NAME.log.
start_member() {
  local name="$1"; shift
  "$ETCD_BIN" --name "$name" --data-dir "$WORK/$name.etcd" "$@" >"$WORK/$name.log" 2>&1 &
  PIDS+=("$!")
  echo "started $name (pid $!, log $WORK/$name.log)"
}

# wait_healthy ENDPOINT ETCDCTL-TLS-FLAGS... : polls 'endpoint health' for up to about 30 s.
wait_healthy() {
  local endpoint="$1"; shift
  for _ in $(seq 1 60); do
    if "$ETCDCTL_BIN" --endpoints "$endpoint" --dial-timeout 1s --command-timeout 2s "$@" endpoint health \
        >/dev/null 2>&1; then
      echo "$endpoint is healthy"
      return 0
    fi
    sleep 0.5
  done
  for log in "$WORK"/*.log; do echo "--- $log"; tail -n 20 "$log"; done >&2
  fail "$endpoint did not become healthy"
}

# expect_fail DESCRIPTION COMMAND... : the command must exit non-zero.
expect_fail() {
  local what="$1"; shift
  if "$@" >"$WORK/expected-failure.out" 2>&1; then
    fail "$what unexpectedly succeeded"
  fi
  echo "refused as expected: $what ($(tail -n 1 "$WORK/expected-failure.out"))"
}

# expect_eq EXPECTED ACTUAL DESCRIPTION
expect_eq() {
  [ "$1" = "$2" ] || fail "$3: expected '$1', got '$2'"
  echo "ok: $3"
}

# expect_healthy BODY DESCRIPTION: a /health reply saying healthy, in etcd 3.4's form
# ({"health":"true"}) or the later one with a reason field (etcd 3.5+ and our server).
expect_healthy() {
  case "$1" in
    '{"health":"true"}'|'{"health":"true","reason":""}') echo "ok: $2" ;;
    *) fail "$2: expected a healthy reply, got '$1'" ;;
  esac
}

# poll_health URL CURL-ARGS... : prints the /health reply, polling up to about 10 s until it says
# healthy. Right after a cluster starts, a follower can briefly report unhealthy (no leader yet,
# or a read barrier that timed out during an election) although TLS works.
poll_health() {
  local url="$1"; shift
  local body=""
  for _ in $(seq 1 20); do
    body=$(curl -sS "$@" "$url" || true)
    case "$body" in '{"health":"true"'*) break ;; esac
    sleep 0.5
  done
  printf '%s' "$body"
}

need "$ETCD_BIN" ETCD_BIN
need "$ETCDCTL_BIN" ETCDCTL_BIN

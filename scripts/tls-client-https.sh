#!/usr/bin/env bash
# Example 1 of the security guide: client-to-server transport security with HTTPS.
# A member serves its client URL over TLS with a server certificate signed by our CA; curl and
# etcdctl trust that CA. Usage: scripts/tls-client-https.sh (see scripts/tls-lib.sh for env vars).
source "$(dirname "$0")/tls-lib.sh"
PORT_BASE="${PORT_BASE:-23100}"
client="https://127.0.0.1:$PORT_BASE"
peer="http://127.0.0.1:$((PORT_BASE + 1))"
need curl

step "certificates: CA, server certificate for 127.0.0.1/localhost"
"$CERTS_BIN" cluster --member infra0=127.0.0.1,localhost --out "$WORK/certs"

step "etcd with --cert-file/--key-file on $client"
start_member infra0 --cert-file "$WORK/certs/infra0.pem" --key-file "$WORK/certs/infra0-key.pem" \
  --listen-client-urls "$client" --advertise-client-urls "$client" \
  --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" --initial-cluster "infra0=$peer"
wait_healthy "$client" --cacert "$WORK/certs/ca.pem"

step "curl --cacert ca.pem (handshake verified against our CA)"
curl -sS --cacert "$WORK/certs/ca.pem" "$client/v3/kv/put" -X POST -d '{"key":"Zm9v","value":"YmFy"}'
echo
health=$(curl -sS --cacert "$WORK/certs/ca.pem" "$client/health")
expect_healthy "$health" "curl /health over HTTPS"
expect_fail "curl without our CA" curl -sS "$client/health"

step "etcdctl --cacert ca.pem"
"$ETCDCTL_BIN" --endpoints "$client" --cacert "$WORK/certs/ca.pem" put greeting hello
value=$("$ETCDCTL_BIN" --endpoints "$client" --cacert "$WORK/certs/ca.pem" get foo --print-value-only)
expect_eq bar "$value" "etcdctl reads the key curl wrote"
echo "PASS: client-to-server HTTPS"

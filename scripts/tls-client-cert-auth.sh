#!/usr/bin/env bash
# Example 2 of the security guide: client-to-server authentication with client certificates.
# With --client-cert-auth and --trusted-ca-file the member refuses clients without a certificate
# signed by the CA. The client certificate's CN ("root") is the etcd user.
source "$(dirname "$0")/tls-lib.sh"
PORT_BASE="${PORT_BASE:-23200}"
client="https://127.0.0.1:$PORT_BASE"
peer="http://127.0.0.1:$((PORT_BASE + 1))"
need curl

step "certificates: CA, server certificate, client certificate for user root"
"$CERTS_BIN" cluster --member infra0=127.0.0.1,localhost --client root --out "$WORK/certs"
c="$WORK/certs"

step "etcd with --client-cert-auth --trusted-ca-file"
start_member infra0 --client-cert-auth --trusted-ca-file "$c/ca.pem" \
  --cert-file "$c/infra0.pem" --key-file "$c/infra0-key.pem" \
  --listen-client-urls "$client" --advertise-client-urls "$client" \
  --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" --initial-cluster "infra0=$peer"
wait_healthy "$client" --cacert "$c/ca.pem" --cert "$c/client.pem" --key "$c/client-key.pem"

step "without a client certificate: refused"
expect_fail "curl without --cert" curl -sS --cacert "$c/ca.pem" "$client/health"
expect_fail "etcdctl without --cert" "$ETCDCTL_BIN" --endpoints "$client" --dial-timeout 2s --command-timeout 3s \
  --cacert "$c/ca.pem" get foo

step "with the client certificate: served"
curl -sS --cacert "$c/ca.pem" --cert "$c/client.pem" --key "$c/client-key.pem" \
  -L "$client/v3/kv/put" -X POST -d '{"key":"Zm9v","value":"YmFy"}'
echo
value=$("$ETCDCTL_BIN" --endpoints "$client" --cacert "$c/ca.pem" --cert "$c/client.pem" --key "$c/client-key.pem" \
  get foo --print-value-only)
expect_eq bar "$value" "etcdctl with --cert/--key reads what curl wrote"
echo "PASS: client certificate authentication"

#!/usr/bin/env bash
# Example 4 of the security guide: automatic self-signed certificates (--auto-tls and
# --peer-auto-tls). Traffic is encrypted but not authenticated: clients must skip verification.
source "$(dirname "$0")/tls-lib.sh"
PORT_BASE="${PORT_BASE:-23400}"
names=(infra0 infra1 infra2)
need curl

cluster=""
for i in 0 1 2; do
  cluster+="${cluster:+,}${names[$i]}=https://127.0.0.1:$((PORT_BASE + 10 * i + 1))"
done

step "three members with --auto-tls --peer-auto-tls"
for i in 0 1 2; do
  client="https://127.0.0.1:$((PORT_BASE + 10 * i))"
  peer="https://127.0.0.1:$((PORT_BASE + 10 * i + 1))"
  start_member "${names[$i]}" --auto-tls --peer-auto-tls \
    --listen-client-urls "$client" --advertise-client-urls "$client" \
    --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
    --initial-cluster "$cluster" --initial-cluster-token tls-auto-example --initial-cluster-state new
done
# etcdctl 3.4 needs --insecure-transport=false to speak TLS without certificate flags.
insecure=(--insecure-transport=false --insecure-skip-tls-verify)
for i in 0 1 2; do
  wait_healthy "https://127.0.0.1:$((PORT_BASE + 10 * i))" "${insecure[@]}"
done

step "curl without -k: the self-signed certificate is not trusted"
expect_fail "curl verifying the self-signed certificate" curl -sS "https://127.0.0.1:$PORT_BASE/health"

step "curl -k and etcdctl --insecure-skip-tls-verify"
health=$(poll_health "https://127.0.0.1:$PORT_BASE/health" -k)
expect_healthy "$health" "curl -k /health"
"$ETCDCTL_BIN" --endpoints "https://127.0.0.1:$PORT_BASE" "${insecure[@]}" put foo bar
value=$("$ETCDCTL_BIN" --endpoints "https://127.0.0.1:$((PORT_BASE + 20))" "${insecure[@]}" get foo --print-value-only)
expect_eq bar "$value" "replicated over auto TLS"

step "the generated certificate (first member's client certificate)"
"$CERTS_BIN" inspect "$WORK/infra0.etcd/fixtures/client/cert.pem"
echo "PASS: auto TLS"

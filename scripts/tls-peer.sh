#!/usr/bin/env bash
# Example 3 of the security guide: transport security and client certificates between members.
# Three members on 127.0.0.1 talk to each other over TLS and require peer certificates signed by
# the CA (--peer-client-cert-auth); clients use TLS too. Static bootstrap instead of discovery.
source "$(dirname "$0")/tls-lib.sh"
PORT_BASE="${PORT_BASE:-23300}"
names=(infra0 infra1 infra2)

step "certificates for three members and a client"
"$CERTS_BIN" cluster --member infra0=127.0.0.1,localhost --member infra1=127.0.0.1,localhost \
  --member infra2=127.0.0.1,localhost --out "$WORK/certs"
c="$WORK/certs"
tls=(--cacert "$c/ca.pem" --cert "$c/client.pem" --key "$c/client-key.pem")

cluster=""
for i in 0 1 2; do
  cluster+="${cluster:+,}${names[$i]}=https://127.0.0.1:$((PORT_BASE + 10 * i + 1))"
done

step "three members with --peer-client-cert-auth --peer-trusted-ca-file"
for i in 0 1 2; do
  name=${names[$i]}
  client="https://127.0.0.1:$((PORT_BASE + 10 * i))"
  peer="https://127.0.0.1:$((PORT_BASE + 10 * i + 1))"
  start_member "$name" \
    --peer-client-cert-auth --peer-trusted-ca-file "$c/ca.pem" \
    --peer-cert-file "$c/peer-$name.pem" --peer-key-file "$c/peer-$name-key.pem" \
    --client-cert-auth --trusted-ca-file "$c/ca.pem" --cert-file "$c/$name.pem" --key-file "$c/$name-key.pem" \
    --listen-client-urls "$client" --advertise-client-urls "$client" \
    --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" \
    --initial-cluster "$cluster" --initial-cluster-token tls-peer-example --initial-cluster-state new
done
for i in 0 1 2; do
  wait_healthy "https://127.0.0.1:$((PORT_BASE + 10 * i))" "${tls[@]}"
done

step "member list (peer URLs are https)"
"$ETCDCTL_BIN" --endpoints "https://127.0.0.1:$PORT_BASE" "${tls[@]}" member list
count=$("$ETCDCTL_BIN" --endpoints "https://127.0.0.1:$PORT_BASE" "${tls[@]}" member list | grep -c 'https://127.0.0.1')
expect_eq 3 "$count" "three members over https"

step "write on infra0, read on infra2"
"$ETCDCTL_BIN" --endpoints "https://127.0.0.1:$PORT_BASE" "${tls[@]}" put replicated over-peer-tls
value=$("$ETCDCTL_BIN" --endpoints "https://127.0.0.1:$((PORT_BASE + 20))" "${tls[@]}" get replicated --print-value-only)
expect_eq over-peer-tls "$value" "replicated over peer TLS"

step "the peer URL answers etcd's GET /members to a certificate from the CA"
members=$(curl -sS --http1.1 --cacert "$c/ca.pem" --cert "$c/peer-infra1.pem" --key "$c/peer-infra1-key.pem" \
  "https://127.0.0.1:$((PORT_BASE + 1))/members")
expect_eq 3 "$(grep -o '"peerURLs":\["https://127.0.0.1:[0-9]*"\]' <<<"$members" | wc -l)" "three members in /members"

step "each member probes its peers over TLS (etcd_network_peer_round_trip_time_seconds, every 4 s)"
probed=0
for _ in $(seq 1 20); do
  probed=$(curl -sS --cacert "$c/ca.pem" --cert "$c/client.pem" --key "$c/client-key.pem" \
    "https://127.0.0.1:$PORT_BASE/metrics" | grep -c '^etcd_network_peer_round_trip_time_seconds_count{To=".*"} [1-9]' || true)
  [ "$probed" -eq 2 ] && break
  sleep 0.5
done
expect_eq 2 "$probed" "round trips recorded to both peers"

step "a peer without a certificate from the CA is refused"
"$CERTS_BIN" ca --out "$WORK/rogue" --cn rogue-ca >/dev/null
"$CERTS_BIN" issue peer --cn rogue --hosts 127.0.0.1 --ca-cert "$WORK/rogue/ca.pem" --ca-key "$WORK/rogue/ca-key.pem" \
  --out "$WORK/rogue" >/dev/null
expect_fail "peer certificate from another CA" curl -sS --cacert "$c/ca.pem" --cert "$WORK/rogue/rogue.pem" \
  --key "$WORK/rogue/rogue-key.pem" "https://127.0.0.1:$((PORT_BASE + 1))/members"
echo "PASS: peer TLS cluster"

#!/usr/bin/env bash
# The cfssl certificate flow of the transport-security guide, with etcd-certs standing in for
# cfssl: every 'cfssl gencert ARGS | cfssljson -bare NAME' becomes 'etcd-certs gencert ARGS --bare NAME'.
# The resulting files then run a member with client and peer TLS.
source "$(dirname "$0")/tls-lib.sh"
PORT_BASE="${PORT_BASE:-23500}"
client="https://127.0.0.1:$PORT_BASE"
peer="https://127.0.0.1:$((PORT_BASE + 1))"
mkdir -p "$WORK/cfssl"
cd "$WORK/cfssl"

step "cfssl print-defaults config > ca-config.json; cfssl print-defaults csr > ca-csr.json"
"$CERTS_BIN" print-defaults config > ca-config.json
"$CERTS_BIN" print-defaults csr > ca-csr.json
echo "defaults written; editing them as the guide does"

cat > ca-config.json <<'JSON'
{
  "signing": {
    "default": { "expiry": "43800h" },
    "profiles": {
      "server": { "expiry": "43800h", "usages": ["signing", "key encipherment", "server auth"] },
      "client": { "expiry": "43800h", "usages": ["signing", "key encipherment", "client auth"] },
      "peer":   { "expiry": "43800h", "usages": ["signing", "key encipherment", "server auth", "client auth"] }
    }
  }
}
JSON
cat > ca-csr.json <<'JSON'
{ "CN": "My own CA", "key": { "algo": "rsa", "size": 2048 },
  "names": [{ "C": "US", "L": "CA", "O": "My Company Name", "ST": "San Francisco", "OU": "Org Unit 1" }] }
JSON
cat > server.json <<'JSON'
{ "CN": "infra0", "hosts": ["127.0.0.1", "localhost"], "key": { "algo": "ecdsa", "size": 256 },
  "names": [{ "C": "US", "L": "CA", "ST": "San Francisco" }] }
JSON
cat > member1.json <<'JSON'
{ "CN": "member1", "hosts": ["127.0.0.1", "localhost"], "key": { "algo": "ecdsa", "size": 256 } }
JSON
cat > client.json <<'JSON'
{ "CN": "client", "hosts": [""], "key": { "algo": "ecdsa", "size": 256 } }
JSON

step "cfssl gencert -initca ca-csr.json | cfssljson -bare ca -"
"$CERTS_BIN" gencert -initca ca-csr.json --bare ca
step "cfssl gencert -ca=ca.pem -ca-key=ca-key.pem -config=ca-config.json -profile=server server.json | cfssljson -bare server"
"$CERTS_BIN" gencert -ca=ca.pem -ca-key=ca-key.pem -config=ca-config.json -profile=server server.json --bare server
step "... -profile=peer member1.json | cfssljson -bare member1"
"$CERTS_BIN" gencert -ca=ca.pem -ca-key=ca-key.pem -config=ca-config.json -profile=peer member1.json --bare member1
step "... -profile=client client.json | cfssljson -bare client"
"$CERTS_BIN" gencert -ca=ca.pem -ca-key=ca-key.pem -config=ca-config.json -profile=client client.json --bare client
ls -l

step "etcd with the cfssl-style files (client and peer TLS, both with certificate auth)"
start_member infra0 --client-cert-auth --trusted-ca-file ca.pem --cert-file server.pem --key-file server-key.pem \
  --peer-client-cert-auth --peer-trusted-ca-file ca.pem --peer-cert-file member1.pem --peer-key-file member1-key.pem \
  --listen-client-urls "$client" --advertise-client-urls "$client" \
  --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" --initial-cluster "infra0=$peer"
tls=(--cacert ca.pem --cert client.pem --key client-key.pem)
wait_healthy "$client" "${tls[@]}"
"$ETCDCTL_BIN" --endpoints "$client" "${tls[@]}" put foo bar
value=$("$ETCDCTL_BIN" --endpoints "$client" "${tls[@]}" get foo --print-value-only)
expect_eq bar "$value" "etcdctl with the cfssl-style client certificate"
echo "PASS: cfssl flow"

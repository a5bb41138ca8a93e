#!/usr/bin/env bash
# Builds etcd 3.4's own end-to-end suite (tests/e2e of etcd's sources) from Debian's packages, into
# ${E2E:-$HOME/.cache/etcd-e2e}:
#   bin/etcd-e2e.test   the compiled suite (go test -c of go.etcd.io/etcd/tests/e2e)
#   bin/run-etcd-e2e    run-etcd-e2e BIN_DIR [go test flags]: the suite against BIN_DIR/etcd and
#                       BIN_DIR/etcdctl (the real ones, ours, or one of each), run from the working
#                       directory it expects (tests/e2e, with ../../integration/fixtures and
#                       ../../etcd.conf.yml.sample beside it)
#   bin/e2e-each        e2e-each BIN_DIR REGEX [EXCLUDE]: one process per test (a panic or hang in one
#                       test cannot take the rest down): "PASS/FAIL name secs: first error" per test,
#                       then "N passed, M failed"; exit status 0 only when all passed
# The suite spawns members on fixed ports from 20000 and drives etcdctl in pseudo-terminals: run one
# suite at a time on a machine. Needs root (apt-get: golang-go, golang-etcd-server-dev, and etcd's
# Debian source package for the certificates and the sample config) and a few minutes.
# Example, our server with the real etcdctl (docs/compatibility.md has more):
#   d=$(mktemp -d)   # scripts that exec them: our bin/ scripts find their helpers beside themselves
#   printf '#!/bin/sh\nexec %s "$@"\n' "$PWD/bin/etcd" > "$d/etcd"
#   printf '#!/bin/sh\nexec %s "$@"\n' /usr/bin/etcdctl > "$d/etcdctl"; chmod +x "$d"/*
#   ~/.cache/etcd-e2e/bin/e2e-each "$d" '^TestCtlV3Put$'
set -euo pipefail
E2E=${E2E:-$HOME/.cache/etcd-e2e}
WORK=$(mktemp -d -t etcd-e2e-build.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export DEBIAN_FRONTEND=noninteractive
if [ ! -d /usr/share/gocode/src/go.etcd.io/etcd/tests/e2e ] || ! command -v go >/dev/null; then
  apt-get update -q
  apt-get install -y -q golang-go golang-etcd-server-dev
fi
# the fixtures (certificates) and the sample config file are in etcd's source package only
if [ -z "$(apt-cache showsrc etcd 2>/dev/null)" ]; then
  # no deb-src line yet: the same mirror and suite as the binary packages, sources added
  src=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
  suite=$(sed -n 's/^Suites: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
  if [ -z "$src" ] || [ -z "$suite" ]; then
    echo "build-etcd-e2e: no deb-src entry for etcd and no /etc/apt/sources.list.d/debian.sources to derive one from" >&2
    exit 1
  fi
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$src" "$suite" > /etc/apt/sources.list.d/etcd-e2e-src.sources
  apt-get update -q
fi
( cd "$WORK" && apt-get source --download-only etcd >/dev/null && tar xzf etcd_*.orig.tar.gz )
SRC=$(ls -d "$WORK"/etcd-*/ | head -n 1)
# GOPATH mode against Debian's source tree: no module download, the packaged dependencies only
export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOPROXY=off GOCACHE="$WORK/gocache"
mkdir -p "$E2E/bin"
go test -c -o "$E2E/bin/etcd-e2e.test" go.etcd.io/etcd/tests/e2e
rm -rf "$E2E/root"; mkdir -p "$E2E/root/tests/e2e" "$E2E/root/integration"
cp -a "$SRC/integration/fixtures" "$E2E/root/integration/"
cp -a "$SRC/etcd.conf.yml.sample" "$E2E/root/"
cat > "$E2E/bin/run-etcd-e2e" <<WRAP
#!/usr/bin/env bash
# usage: run-etcd-e2e BIN_DIR [go test flags, e.g. -test.run 'TestCtlV3Put\$' -test.v]
set -euo pipefail
BIN_DIR="\$(cd "\$1" && pwd)"; shift
cd "$E2E/root/tests/e2e"
exec "$E2E/bin/etcd-e2e.test" -bin-dir="\$BIN_DIR" -cert-dir="$E2E/root/integration/fixtures" "\$@"
WRAP
cat > "$E2E/bin/e2e-each" <<'EACH'
#!/usr/bin/env bash
# usage: e2e-each BIN_DIR REGEX [EXCLUDE]: one process per test; PASS/FAIL lines, then a count.
# E2E_EACH_S: seconds per test (240); E2E_KEEP=DIR keeps each failing test's output there.
set -u
bindir=$1 regex=$2 exclude=${3:-'^$'}
here=$(dirname "$(readlink -f "$0")")
pass=0 fail=0
for t in $("$here/etcd-e2e.test" -test.list "$regex" 2>/dev/null | grep -Ev "$exclude"); do
  log=$(mktemp); start=$(date +%s)
  timeout -k 10 "${E2E_EACH_S:-240}" "$here/run-etcd-e2e" "$bindir" -test.run "^$t\$" -test.v \
    -test.timeout "$(( ${E2E_EACH_S:-240} - 10 ))s" > "$log" 2>&1
  secs=$(( $(date +%s) - start ))
  if grep -q "^--- PASS: $t " "$log" && ! grep -q '^--- FAIL' "$log" && ! grep -q '^panic' "$log"; then
    echo "PASS $t ${secs}s"; pass=$((pass+1))
  else
    why=$(grep -E '_test\.go:[0-9]+:|^panic|timed out' "$log" | head -n 1 | sed 's/^[[:space:]]*//' | cut -c1-220)
    echo "FAIL $t ${secs}s: ${why:-no result}"; fail=$((fail+1))
    if [ -n "${E2E_KEEP:-}" ]; then cp "$log" "$E2E_KEEP/$t.log"; fi
  fi
  rm -f "$log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
EACH
chmod +x "$E2E/bin/run-etcd-e2e" "$E2E/bin/e2e-each"
echo "$("$E2E/bin/etcd-e2e.test" -test.list '.*' | wc -l) tests in the suite, built into $E2E"

#!/usr/bin/env bash
# Start-up time and resident memory of in-process clusters (etcd-embedded), in one JVM: N starts
# of a 1-member and of a 3-member cluster, the first of each cold. Needs `mvn -q package -DskipTests`
# (and the test classes: `mvn -q test-compile -pl etcd-embedded`). Usage: scripts/embedded-startup.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
cp="etcd-embedded/target/test-classes:etcd-embedded/target/classes:etcd-server/target/classes:certs/target/classes"
for jar in etcd-server/target/lib/*.jar; do cp="$cp:$jar"; done
# the members' own log lines go to standard error; only the figures are printed
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" io.etcdj.embedded.StartupFigures "${1:-10}" 2>/dev/null

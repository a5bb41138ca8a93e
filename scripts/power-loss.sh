#!/usr/bin/env bash
# The power-loss suite: rounds of a fresh cluster whose data dirs are on powerfs (a FUSE filesystem
# that forgets what was not fsynced), writers, a power cut at the variant's moment, a restart and
# the checks (docs/testing.md, "Power loss"). One line per round, then exactly one line
# "N rounds, M would not start, K acknowledged writes lost"; exit 0 only when every round passed
# (M and K are 0 and no round found a damaged backend, a disagreement or a non-linearizable history).
#   scripts/power-loss.sh bin/etcd                                   # ours, one round per variant
#   scripts/power-loss.sh /usr/bin/etcd --members 3 --rounds 20 --seed 7
#   scripts/power-loss.sh bin/etcd --variant defrag,torn --rounds 10 -- --snapshot-count=100
# Options: --members 1|3  --rounds N  --seed S  --dir DIR (failing rounds are kept there)
#          --variant all | cut | torn | TRIGGER[+cut|+torn][,...] with TRIGGER one of
#                    random snapshot defrag compaction wal-cut member-add (member-add: --members 3)
# Needs root or /dev/fuse access, and Debian's fuse3 libfuse3-dev pkg-config gcc lmdb-utils etcd-client.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 1 ] || [ "${1#-}" != "$1" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
if [ ! -f "$root/robustness/target/robustness-0.1.0-SNAPSHOT.jar" ] || [ ! -f "$root/etcd-server/target/etcd-server-0.1.0-SNAPSHOT.jar" ]; then
  (cd "$root" && mvn -q -pl robustness -am package -DskipTests) >&2
fi
JAVA_OPTS="-Drobustness.projectRoot=$root ${JAVA_OPTS:-}" exec "$root/bin/run-module" robustness io.etcdj.robustness.PowerLoss "$@"

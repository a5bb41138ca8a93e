#!/usr/bin/env bash
# Runs the fault-injection suite for as long as asked and prints a summary; failing runs keep their
# history, violations and member logs in the directory printed.
#   scripts/robustness-soak.sh                       # ours, 30 minutes
#   scripts/robustness-soak.sh --server etcd --duration 2h
#   scripts/robustness-soak.sh --runs 100 --run-seconds 15 --seed 1000
# Options: --server ours|etcd --runs N --duration 30m|2h --run-seconds S --seed S --clients N
#          --faults kill_leader,kill_random,pause_random,isolate_random,isolate_leader,cut_link,slow_links --dir DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$root/robustness/target/robustness-0.1.0-SNAPSHOT.jar" ] || [ ! -f "$root/etcd-server/target/etcd-server-0.1.0-SNAPSHOT.jar" ]; then
  (cd "$root" && mvn -q -pl robustness -am package -DskipTests)
fi
args=("$@")
[ $# -eq 0 ] && args=(--duration 30m)
JAVA_OPTS="-Drobustness.projectRoot=$root ${JAVA_OPTS:-}" exec "$root/bin/run-module" robustness io.etcdj.robustness.Robustness "${args[@]}"

#!/usr/bin/env bash
# Chain backfill: channels opened, claimed and closed on a fresh anvil, then ingested from block 0
# into a fresh PostgreSQL database by the application's listener, next to a bare eth_getLogs client.
# Usage: deploy/bench/backfill-bench.sh [--channels=10000] [--range=100] [--bare-rounds=3]
# Needs PostgreSQL as for the tests (CHAN_TEST_PG_* variables) and `npm ci --prefix deploy`.
# Builds with Maven first (fetching what the local repository lacks).
set -euo pipefail

. "$(dirname "$0")/../lib/jdk.sh"; chan_select_jdk
cd "$(dirname "$0")/../.."

./mvnw -B -q -pl ledger-api -am install -DskipTests
./mvnw -B -q -pl ledger-api test-compile

classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
./mvnw -B -q -pl ledger-api dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file"

echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
"$JAVA_HOME/bin/java" -Xms512m -Xmx1g --enable-native-access=ALL-UNNAMED -Daxoniq.update-checker.disabled=true \
    -cp "ledger-api/target/test-classes:ledger-api/target/classes:$(cat "$classpath_file")" \
    io.chanledger.api.ledger.chain.bench.BackfillBench "$@"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) done, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

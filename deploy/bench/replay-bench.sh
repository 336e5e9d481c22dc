#!/usr/bin/env bash
# Replay of the channel read models on PostgreSQL, next to a bare JDBC reader of the same event
# rows in the same run, and the heap at the end (ledger-api's ReplayBench).
# Usage: deploy/bench/replay-bench.sh [events, default 1000000] [service settings, e.g. --chan.read-models.batch-size=2000]
# Builds with Maven first; the database chan_ledger_replay_bench is dropped and created afresh.
# BENCH_HEAP sets the heap (1g); BENCH_JAVA_OPTS adds JVM options, e.g. -XX:StartFlightRecording=filename=replay.jfr
# BENCH_KEEP_DB=1 keeps the database of an earlier run: when it holds exactly that many events, they
# are measured again without being written anew (for trying rebuild settings one after another).
# BENCH_REPLAYS=N replays N times in the same process; the first, whose code is not compiled yet, is the figure.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
. deploy/lib/postgres.sh
chan_select_jdk
chan_ensure_postgres

events=${1:-1000000}
shift || true
pg_user=${CHAN_TEST_PG_USER:-postgres}
export PGPASSWORD=${CHAN_TEST_PG_PASSWORD:-}
db=chan_ledger_replay_bench
jdbc="jdbc:postgresql://$CHAN_TEST_PG_HOST:$CHAN_TEST_PG_PORT/$db"
heap=${BENCH_HEAP:-1g}

./mvnw -B -q -pl ledger-api -am install -DskipTests
./mvnw -B -q -pl ledger-api test-compile
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
./mvnw -B -q -pl ledger-api dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file"

if [ "${BENCH_KEEP_DB:-0}" = 1 ] && psql -q -h "$CHAN_TEST_PG_HOST" -p "$CHAN_TEST_PG_PORT" -U "$pg_user" -d "$db" -c "" 2>/dev/null; then
    echo "# keeping database $db"
else
    psql -q -h "$CHAN_TEST_PG_HOST" -p "$CHAN_TEST_PG_PORT" -U "$pg_user" -d postgres \
        -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
fi
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg), heap $heap"
exec "$JAVA_HOME/bin/java" ${BENCH_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -Xms"$heap" -Xmx"$heap" \
    -Daxoniq.update-checker.disabled=true \
    -cp "ledger-api/target/test-classes:ledger-api/target/classes:$(cat "$classpath_file")" \
    io.chanledger.api.ledger.readmodels.bench.ReplayBench "$jdbc" "$pg_user" "$PGPASSWORD" "$events" "$@"

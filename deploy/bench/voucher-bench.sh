#!/usr/bin/env bash
# Voucher admission throughput of the service (postgres profile), with group commit on and off,
# next to the baseline of the same PostgreSQL: pgbench committing single-row INSERTs of the same
# size as a VoucherAccepted event, at the same concurrency, in the same run. Modes (BENCH_MODES,
# default "true false two"): group commit on, off, and two instances with group commit on, behind
# round-robin on the same database. Each mode warms up in rounds at every level until the JIT
# compilers settle (under 5% of the service's CPU in a round, 20 rounds at most) and says how many
# rounds and vouchers that took. Each measured level reports, per voucher, the CPU of the service,
# of PostgreSQL's processes and of the load generator, and how busy the machine's cores were; then
# the service's thread groups (each group's kernel time also apart) and the database's commits and
# rows. The baseline reports the same for pgbench: PostgreSQL's CPU and pgbench's own per commit,
# and the machine's busy share. After each mode, the CPU-seconds the service processes used (warm-up
# included) per voucher sent.
# Usage: deploy/bench/voucher-bench.sh [levels, default 1,16,64] [vouchers per level, default 20000]
# BENCH_JAVA_OPTS adds JVM options to the service, e.g. -XX:StartFlightRecording=filename=voucher.jfr,settings=profile
# BENCH_STORE=embedded measures the default profile instead: the service on its embedded store (a fresh
# data folder per mode, the server on port BENCH_PORT + 10), its CPU counted with the server's processes,
# and no pgbench baseline; BENCH_DATASOURCE_URL / BENCH_DATASOURCE_USER give that service a database URL
# instead, seeded through the same URL. BENCH_JAR measures another build's jar.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
. deploy/lib/postgres.sh
chan_select_jdk
chan_ensure_postgres

levels=${1:-1,16,64}
per_level=${2:-20000}
port=${BENCH_PORT:-18181}
pg_user=${CHAN_TEST_PG_USER:-postgres}
export PGPASSWORD=${CHAN_TEST_PG_PASSWORD:-}
pg="psql -q -h $CHAN_TEST_PG_HOST -p $CHAN_TEST_PG_PORT -U $pg_user"
db=chan_ledger_bench
jdbc="jdbc:postgresql://$CHAN_TEST_PG_HOST:$CHAN_TEST_PG_PORT/$db"
store=${BENCH_STORE:-postgres}
jar=${BENCH_JAR:-ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar}
store_port=$((port + 10))
modes=${BENCH_MODES:-true false two}
if [ "$store" = embedded ]; then
    modes=${BENCH_MODES:-true false}
    jdbc=${BENCH_DATASOURCE_URL:-jdbc:postgresql://127.0.0.1:$store_port/chan_ledger}
    pg_user=${BENCH_DATASOURCE_USER:-postgres}
    export PGPASSWORD=
    case " $modes " in *" two "*) echo "two instances need a shared server: not with BENCH_STORE=embedded" >&2; exit 1;; esac
fi

./mvnw -B -q -DskipTests install
./mvnw -B -q -pl ledger-api test-compile
classpath_file=$(mktemp)
service_pid=
store_pids=
store_dir=
cleanup() {
    [ -n "$service_pid" ] && kill $service_pid 2>/dev/null && wait $service_pid 2>/dev/null
    [ -n "$store_dir" ] && rm -rf "$store_dir"
    rm -f "$classpath_file"
}
trap cleanup EXIT
./mvnw -B -q -pl ledger-api dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file"
bench_cp="ledger-api/target/test-classes:ledger-api/target/classes:$(cat "$classpath_file")"

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

start_service() { # port group-commit extra-args...
    local service_port=$1 group_commit=$2 store_args began
    shift 2
    if [ "$store" = embedded ]; then
        store_dir=$(mktemp -d)
        store_args="--chan.embedded-store.directory=$store_dir --chan.embedded-store.port=$store_port"
        [ -n "${BENCH_DATASOURCE_URL:-}" ] && store_args="--spring.datasource.url=$BENCH_DATASOURCE_URL"
    else
        store_args="--spring.profiles.active=postgres --spring.datasource.url=$jdbc --spring.datasource.username=$pg_user"
        store_args="$store_args --spring.datasource.password=$PGPASSWORD"
    fi
    began=$(date +%s%N)
    # every role in one process, so the provider's gateway with it: a devnet-only key and an echo model
    # shellcheck disable=SC2086 # the store's arguments are words
    CHAN_GATEWAY_PROVIDER_KEY=0x715a48a4b5929015260802e728408f658958759273c7dea32bb2b0540ca13e2e \
        "$JAVA_HOME/bin/java" ${BENCH_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m \
        -jar "$jar" $store_args \
        --chan.gateway.upstreams[0].name=echo --chan.gateway.upstreams[0].kind=echo \
        --chan.gateway.models[0].id=echo-1 --chan.gateway.models[0].upstream=echo \
        --chan.gateway.models[0].input-per-1k-tokens=0.00375 --chan.gateway.models[0].output-per-1k-tokens=0.015 \
        --server.port="$service_port" --chan.ledger.group-commit="$group_commit" \
        --server.tomcat.threads.max=200 --logging.level.root=WARN "$@" \
        > "/tmp/voucher-bench-service-$service_port.log" 2>&1 &
    service_pid="$service_pid $!"
    for _ in $(seq 1 120); do
        curl -fs "http://127.0.0.1:$service_port/actuator/health" >/dev/null 2>&1 && break
        kill -0 "${service_pid##* }" 2>/dev/null || break
        sleep 1
    done
    # a service that did not come up would be measured as a run of errors
    curl -fs "http://127.0.0.1:$service_port/actuator/health" >/dev/null 2>&1 || {
        echo "the service on port $service_port did not come up; see /tmp/voucher-bench-service-$service_port.log" >&2
        exit 1
    }
    if [ "$store" = embedded ]; then
        echo "start-up: $(( ($(date +%s%N) - began) / 1000000 )) ms to a healthy service"
        if [ -f "$store_dir/postgres/postmaster.pid" ]; then
            local postmaster
            postmaster=$(head -n 1 "$store_dir/postgres/postmaster.pid")
            store_pids="$postmaster $(ps -o pid= --ppid "$postmaster" | tr '\n' ' ')"
        fi
        memory
    fi
}
memory() { # resident memory of the service and of its database's processes (PSS: shared pages split among them)
    local pid rss=0 pss=0
    for pid in $service_pid; do
        echo "service JVM RSS: $(( $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status") / 1024 )) MiB"
    done
    [ -z "$store_pids" ] && return
    for pid in $store_pids; do
        rss=$(( rss + $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0) ))
        pss=$(( pss + $(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0) ))
    done
    echo "database: $(echo $store_pids | wc -w) processes, RSS $(( rss / 1024 )) MiB summed, PSS $(( pss / 1024 )) MiB"
}
cpu_ticks() { # the clock ticks of the service's processes and its database's, with their children's that ended
    local total=0 pid
    for pid in $service_pid $store_pids; do
        [ -r "/proc/$pid/stat" ] || continue
        total=$(( total + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13 + $14 + $15}') ))
    done
    echo "$total"
}

for mode in $modes; do
    [ "$store" = postgres ] && $pg -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
    service_pid=
    if [ "$mode" = two ]; then
        start_service "$port" true
        start_service "$((port + 1))" true --chan.listener.enabled=false
        urls="http://127.0.0.1:$port,http://127.0.0.1:$((port + 1))"
        echo
        echo "## ledger, two instances, group commit true, round-robin"
    else
        start_service "$port" "$mode"
        urls="http://127.0.0.1:$port"
        echo
        echo "## ledger, group commit $mode"
    fi
    ticks_before=$(cpu_ticks)
    bench_out=$(mktemp)
    "$JAVA_HOME/bin/java" -Xmx512m -cp "$bench_cp" io.chanledger.api.bench.VoucherAdmissionBench \
        "$urls" "$jdbc" "$pg_user" "$PGPASSWORD" "$levels" "$per_level" "$service_pid $store_pids" "$(getconf CLK_TCK)" \
        | tee "$bench_out"
    ticks=$(( $(cpu_ticks) - ticks_before ))
    # every voucher sent, the bench's warm-up rounds included (it says how many it sent)
    warm_up=$(sed -n 's/^# warm-up: [0-9]* rounds, \([0-9]*\) vouchers.*/\1/p' "$bench_out")
    sent=$(awk -F'|' -v w="${warm_up:-0}" '/^\| [0-9]/ {n += $3} END {print n + w}' "$bench_out")
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$sent" 'BEGIN {
        printf "\nservice CPU: %.1f s for %d vouchers (warm-up included): %.3f ms per voucher\n", t / hz, n, 1000 * t / hz / n }'
    rm -f "$bench_out"
    [ "$store" = embedded ] && memory
    kill $service_pid; wait $service_pid 2>/dev/null || true; service_pid=
    store_pids=
    [ -n "$store_dir" ] && rm -rf "$store_dir"
    store_dir=
done
[ "$store" = embedded ] && exit 0

# Baseline: one INSERT of an event-sized row per transaction, autocommit, same concurrency.
$pg -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
$pg -d $db -c "CREATE TABLE baseline_event (global_index BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    aggregate_identifier VARCHAR(255) NOT NULL, sequence_number BIGINT NOT NULL, payload VARCHAR NOT NULL,
    UNIQUE (aggregate_identifier, sequence_number))"
payload=$(printf '{"channelId":"0x%064d","amount":"123456000","nonce":"123456","signature":"0x%0130d","increment":"1000","acceptedAt":1763700000}' 0 0)
script=$(mktemp)
cat > "$script" <<SQL
\set seq random(1, 1000000000)
INSERT INTO baseline_event (aggregate_identifier, sequence_number, payload) VALUES (md5(random()::text), :seq, '$payload');
SQL
echo
echo "## baseline: pgbench, one ${#payload}-byte row per commit"
"$JAVA_HOME/bin/java" -cp "$bench_cp" io.chanledger.api.bench.PgbenchBaseline "$levels" "$(getconf CLK_TCK)" -n \
    -h "$CHAN_TEST_PG_HOST" -p "$CHAN_TEST_PG_PORT" -U "$pg_user" -T 15 -f "$script" "$db"
rm -f "$script"

#!/usr/bin/env bash
# Provider gateway throughput: paid chat completions through the gateway (echo backend, postgres
# profile, no chain) next to the same requests to the unpaid echo endpoint of the same process,
# at each concurrency, in the same run; the overhead of payment as a ratio. Besides the service's
# CPU per request: the database server's CPU and the bench database's commits per paid request,
# and the service's CPU by thread group, unpaid next to paid, each group's kernel time also apart
# (read from /proc: run it on the database's machine). It warms up until the JIT compilers settle,
# in rounds of paid and unpaid runs at each level it measures (settled: under 5% of the service's
# CPU in every paid run of a round, 20 rounds at most), and says how many rounds that took. Last, the database
# floor of a lone paid request: the statements of its two commits sent straight to the database
# from one client, with no service in between, back to back and then 1 ms apart as a lone agent's
# requests come; and the database's CPU per paid request for the rows paid requests under load
# must make durable, written by two clients, 8 and then 32 paid requests a commit (PaidRequestDatabaseFloor).
# With BENCH_HTTP_UPSTREAM=true: a flat-priced service of an HTTP upstream instead (the model
# word-count, served by the process's own unpaid /demo/word-count on loopback), paid through the
# gateway next to the same parameters posted to the upstream directly.
# Usage: deploy/bench/gateway-bench.sh [levels, default 16,64] [requests per client, default 300]
# The service runs as a provider's process does (chan.role=provider: the gateway and its ledger, not
# the marketplace's processors); BENCH_ROLE=all runs every part in one process, as rounds before
# thirteen measured it.
# The service's JVM runs with the options a provider's launcher gives it (deploy/dist/lib/java-options.sh);
# BENCH_SERVICE_JAVA_OPTS replaces them, e.g. "-Xms512m -Xmx512m" (G1 and the heap the rounds before
# fourteen ran with, and what BENCH_ROLE=all starts with).
# BENCH_JAVA_OPTS adds JVM options to the service, e.g. -XX:StartFlightRecording=filename=gateway.jfr,settings=profile
# BENCH_JAR measures another build's jar (the bench's own classes stay this tree's).
# BENCH_FLUSH_DELAY_MICROS=300 makes each commit that waits for the disk wait 300 µs longer, as on a
# slower disk than the machine's (a cloud volume's flush takes 0.5–2 ms)
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
. deploy/lib/postgres.sh
. deploy/dist/lib/java-options.sh
chan_select_jdk
chan_ensure_postgres

levels=${1:-16,64}
per_client=${2:-300}
port=${BENCH_PORT:-18182}
role=${BENCH_ROLE:-provider}
if [ "$role" = provider ]; then default_java_opts=$chan_provider_java_opts; else default_java_opts="-Xms512m -Xmx512m"; fi
service_java_opts=${BENCH_SERVICE_JAVA_OPTS-$default_java_opts}
pg_user=${CHAN_TEST_PG_USER:-postgres}
export PGPASSWORD=${CHAN_TEST_PG_PASSWORD:-}
# CHAN_TEST_DB_SUFFIX keeps runs of separate checkouts on one machine apart
db=chan_gateway_bench${CHAN_TEST_DB_SUFFIX:-}
log=/tmp/gateway-bench-service${CHAN_TEST_DB_SUFFIX:-}.log
jdbc="jdbc:postgresql://$CHAN_TEST_PG_HOST:$CHAN_TEST_PG_PORT/$db"
# a throw-away key: the benchmark never touches a chain
export CHAN_GATEWAY_PROVIDER_KEY=0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d
provider=0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1

# built in the reactor, so the local Maven repository is left as it was
./mvnw -B -q -pl ledger-api -am package -DskipTests
classpath_file=$(mktemp)
service_pid=
cleanup() { [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null; rm -f "$classpath_file"; }
trap cleanup EXIT
./mvnw -B -q -pl ledger-api -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$classpath_file"
bench_cp="ledger-api/target/test-classes:ledger-api/target/classes:$(cat "$classpath_file")"

service_settings=()
if [ "${BENCH_HTTP_UPSTREAM:-false}" = true ]; then
    service_settings=(--chan.gateway.word-count-endpoint=true
        --chan.gateway.upstreams[1].name=word-count --chan.gateway.upstreams[1].kind=http
        --chan.gateway.upstreams[1].url="http://127.0.0.1:$port/demo/word-count"
        --chan.gateway.models[1].id=word-count --chan.gateway.models[1].upstream=word-count
        --chan.gateway.models[1].pricing=flat --chan.gateway.models[1].price=0.001
        '--chan.gateway.models[1].parameters={"type":"object","required":["text"],"properties":{"text":{"type":"string"}}}'
        '--chan.gateway.models[1].example={"text":"one two three"}')
fi

psql -q -h "$CHAN_TEST_PG_HOST" -p "$CHAN_TEST_PG_PORT" -U "$pg_user" -d postgres \
    -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
if [ -n "${BENCH_FLUSH_DELAY_MICROS:-}" ]; then
    [[ "$BENCH_FLUSH_DELAY_MICROS" =~ ^[0-9]+$ ]] || { echo "BENCH_FLUSH_DELAY_MICROS: microseconds, a whole number" >&2; exit 2; }
    # a slower disk: every commit that waits for the log's flush waits this much longer (PostgreSQL's
    # group-commit delay, taken before each such flush when no other transaction need be open)
    psql -q -h "$CHAN_TEST_PG_HOST" -p "$CHAN_TEST_PG_PORT" -U "$pg_user" -d postgres \
        -c "ALTER DATABASE $db SET commit_delay = $BENCH_FLUSH_DELAY_MICROS" \
        -c "ALTER DATABASE $db SET commit_siblings = 0"
fi
# the options are split into words on purpose
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" $service_java_opts ${BENCH_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED \
    -jar "${BENCH_JAR:-ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar}" --spring.profiles.active=postgres --chan.role="$role" \
    --server.port="$port" --spring.datasource.url="$jdbc" --spring.datasource.username="$pg_user" \
    --spring.datasource.password="$PGPASSWORD" --server.tomcat.threads.max=200 --logging.level.root=WARN \
    --chan.chain.rpc-url= --chan.gateway.name="Bench gateway" \
    --chan.gateway.echo-endpoint=true --chan.gateway.upstreams[0].name=echo --chan.gateway.upstreams[0].kind=echo \
    --chan.gateway.models[0].id=echo-1 --chan.gateway.models[0].upstream=echo \
    --chan.gateway.models[0].input-per-1k-tokens=0.00375 \
    --chan.gateway.models[0].output-per-1k-tokens=0.015 "${service_settings[@]}" \
    > "$log" 2>&1 &
service_pid=$!
for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$port/v1/pricing" >/dev/null 2>&1 && break
    sleep 1
done
curl -fs "http://127.0.0.1:$port/v1/pricing" | grep -qi "$provider" \
    || { echo "the gateway did not come up as $provider; see $log" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), chan.role=$role, JVM options: ${service_java_opts:-none} ${BENCH_JAVA_OPTS:-}"
"$JAVA_HOME/bin/java" -Xmx512m -cp "$bench_cp" io.chanledger.api.provider.gateway.GatewayBench \
    "http://127.0.0.1:$port" "$jdbc" "$pg_user" "$PGPASSWORD" "$provider" "$levels" "$per_client" \
    "$service_pid" "$(getconf CLK_TCK)"
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"

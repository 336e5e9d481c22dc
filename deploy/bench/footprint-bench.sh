#!/usr/bin/env bash
# What each party costs the machine it runs on: the marketplace's and a provider's start-up time
# and resident memory. Start-up: each role started alone (the others stopped) on a devnet, once on
# a new store (the embedded PostgreSQL's initdb included) and once again on that store, timed from
# the launch to /actuator/health answering UP. Memory: the local network of deploy/run.sh after the
# walkthrough has paid both providers (warm-up), each service's JVM (VmRSS) and, apart, the
# PostgreSQL server its embedded store started (its processes' proportional sets, Pss, so that the
# shared buffers they all map count once), read from /proc.
# Usage: deploy/bench/footprint-bench.sh [walkthrough rounds, default 2]
# Each role's JVM starts with the options its launcher gives it (deploy/dist/lib/java-options.sh);
# BENCH_JAVA_OPTS, when set (even empty: the JVM's own defaults), replaces them for every service it
# starts (e.g. "-Xmx192m -XX:+UseSerialGC").
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
. deploy/lib/node.sh
. deploy/dist/lib/java-options.sh
# BENCH_JAVA_OPTS replaces every role's options as CHAN_JAVA_OPTS does for the launchers
if [ -n "${BENCH_JAVA_OPTS+set}" ]; then export CHAN_JAVA_OPTS=$BENCH_JAVA_OPTS; fi
chan_select_jdk
chan_ensure_node_tools

rounds=${1:-2}
port=${BENCH_PORT:-18880}
anvil_port=${BENCH_ANVIL_PORT:-18845}
rpc="http://127.0.0.1:$anvil_port"
jar=ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar
work=$(mktemp -d)
pids=
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
[ -f "$jar" ] || { echo "build the service first (./mvnw -DskipTests install, or deploy/run.sh once)" >&2; exit 1; }

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
# proportional: memory shared between processes (PostgreSQL's shared buffers) counted once in all
pss_kib() { awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0; }
# the embedded store's server and its helper processes: every process whose parent is the postmaster
postgres_pss_kib() {
    local postmaster total=0 pid
    postmaster=$(head -n 1 "$1/postgres/postmaster.pid" 2>/dev/null) || { echo 0; return; }
    total=$(pss_kib "$postmaster")
    for pid in $(ps -o pid= --ppid "$postmaster"); do total=$((total + $(pss_kib "$pid"))); done
    echo "$total"
}
now_ms() { date +%s%3N; }

echo "== devnet on $rpc"
ANVIL_PORT=$anvil_port sh deploy/devnet/start-anvil.sh > "$work/anvil.log" 2>&1 &
pids="$!"
for _ in $(seq 1 60); do
    curl -fs -X POST -H 'content-type: application/json' \
        --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$rpc" >/dev/null 2>&1 && break
    sleep 0.5
done
CHAN_RPC_URL=$rpc node deploy/devnet/deploy.mjs > /dev/null


# Starts one role alone on the store in $2, timed from launch to health UP; prints the milliseconds.
timed_start() {
    local name=$1 store=$2 config=$3 started pid
    started=$(now_ms)
    # the options are split into words on purpose
    # shellcheck disable=SC2046
    CHAN_RPC_URL=$rpc CHAN_PUBLIC_URL="http://127.0.0.1:$port" CHAN_MARKETPLACE_URL="http://127.0.0.1:$port" \
        UPSTREAM_STUB_URL="http://127.0.0.1:9" \
        "$JAVA_HOME/bin/java" $(chan_role_java_opts "$name") --enable-native-access=ALL-UNNAMED -jar "$jar" \
        --spring.profiles.active=devnet --server.port="$port" --chan.embedded-store.directory="$store" \
        --spring.config.additional-location="file:$config" > "$work/$name.log" 2>&1 &
    pid=$!
    until curl -fs "http://127.0.0.1:$port/actuator/health" 2>/dev/null | grep -q '"UP"'; do
        kill -0 "$pid" 2>/dev/null || { echo "the $name stopped; its log:" >&2; tail -40 "$work/$name.log" >&2; exit 1; }
        sleep 0.1
    done
    echo $(( $(now_ms) - started ))
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

echo "== start-up, each role alone"
declare -A startup
for role in marketplace provider; do
    config=deploy/devnet/marketplace.yml
    [ "$role" = provider ] && config=deploy/devnet/providers/chat-provider.yml
    startup[$role-new]=$(timed_start "$role" "$work/$role-store" "$config")
    startup[$role-again]=$(timed_start "$role" "$work/$role-store" "$config")
done
kill "$pids" 2>/dev/null; wait "$pids" 2>/dev/null || true
pids=

echo "== resident memory after the walkthrough ($rounds rounds) on the local network"
ready="$work/ready"
# the local network gives each part its launcher's options unless CHAN_JAVA_OPTS is set (above)
PORT=$port ANVIL_PORT=$anvil_port CHAN_SKIP_BUILD=1 CHAN_ADMIN_TOKEN=bench \
    bash deploy/run.sh --ready-file "$ready" > "$work/network.log" 2>&1 &
pids="$!"
for _ in $(seq 1 600); do [ -f "$ready" ] && break; sleep 1; done
[ -f "$ready" ] || { echo "the local network did not come up" >&2; tail -40 "$work/network.log" >&2; exit 1; }
for _ in $(seq 1 "$rounds"); do
    CHAN_MARKETPLACE_URL="http://127.0.0.1:$port" CHAN_RPC_URL=$rpc CHAN_EXPECT_PROVIDERS=2 \
        node deploy/devnet/walkthrough.mjs > "$work/walkthrough.log" 2>&1 \
        || { echo "the walkthrough failed:" >&2; tail -20 "$work/walkthrough.log" >&2; exit 1; }
done
data=data/local-network-$port
printf '\n| part | JVM resident (MiB) | its PostgreSQL, proportional (MiB) | start-up alone, new store (s) | again (s) |\n|---|---:|---:|---:|---:|\n'
for name in marketplace chat-provider services-provider; do
    pid=$(pgrep -f -- "--chan.embedded-store.directory=./$data/$name" | head -n 1)
    role=provider
    [ "$name" = marketplace ] && role=marketplace
    new=""; again=""
    if [ "$name" != services-provider ]; then
        new=$(awk "BEGIN {printf \"%.1f\", ${startup[$role-new]} / 1000}")
        again=$(awk "BEGIN {printf \"%.1f\", ${startup[$role-again]} / 1000}")
    fi
    printf '| %s | %d | %d | %s | %s |\n' "$name" $(( $(rss_kib "$pid") / 1024 )) \
        $(( $(postgres_pss_kib "$data/$name") / 1024 )) "$new" "$again"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# What a provider costs the machine it runs on, installed from the distribution archive and started
# by its launcher with the JVM options and class cache it ships: the time from launch to
# /actuator/health UP on a new store (the jar's extraction and the embedded PostgreSQL's initdb
# included; the run that records the class cache), the time its stop takes (the cache written), a
# restart on the cache, and resident memory after MINUTES of paid load on each run: the devnet
# walkthrough (deploy/devnet/walkthrough.mjs: a channel, paid chat requests, a cooperative close)
# repeated against it through a marketplace started from the same archive. Each start also gives
# the CPU seconds its processes spent until ready (the JVM, the extraction and the embedded
# PostgreSQL's), which other load on the machine changes less than the wall clock.
#
# Memory: the JVM's resident set (VmRSS) and, apart, its embedded PostgreSQL's processes by
# proportional set (Pss: the shared buffers they all map count once), read from /proc.
#
# Usage: deploy/bench/footprint-bench.sh [MINUTES of paid load per run, default 10]
# Environment: BENCH_FIRST_RUN_MINUTES (the first run's load, default MINUTES), BENCH_PORT (the marketplace; the provider and the upstream stub take the next two
# ports; default 18880), BENCH_ANVIL_PORT (18845); BENCH_JAVA_OPTS, when set (even empty: the JVM's
# defaults), replaces the launcher's JVM options (CHAN_JAVA_OPTS); BENCH_JVM_CACHE, when set, is
# given to the launchers as CHAN_JVM_CACHE (empty: no class cache).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
. deploy/lib/jdk.sh
. deploy/lib/node.sh
chan_select_jdk
chan_ensure_node_tools

minutes=${1:-10}
first_run_minutes=${BENCH_FIRST_RUN_MINUTES:-$minutes}
port=${BENCH_PORT:-18880}
provider_port=$((port + 1))
stub_port=$((port + 2))
anvil_port=${BENCH_ANVIL_PORT:-18845}
rpc="http://127.0.0.1:$anvil_port"
marketplace_url="http://127.0.0.1:$port"
provider_url="http://127.0.0.1:$provider_port"
archive=$(ls ledger-api/target/ledger-api-*-distribution.tar.gz 2>/dev/null | head -n 1)
[ -n "$archive" ] || { echo "build the distribution first (./mvnw -DskipTests package)" >&2; exit 1; }
if [ -n "${BENCH_JAVA_OPTS+set}" ]; then export CHAN_JAVA_OPTS=$BENCH_JAVA_OPTS; else unset CHAN_JAVA_OPTS; fi
if [ -n "${BENCH_JVM_CACHE+set}" ]; then export CHAN_JVM_CACHE=$BENCH_JVM_CACHE; else unset CHAN_JVM_CACHE; fi
admin_token=bench-admin-token
# the chat provider of the local network: anvil's account 2, a published test key
provider_key=0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a
work=$(mktemp -d)
pids=
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

tar -xzf "$archive" -C "$work"
home=$(ls -d "$work"/chan-ledger-*)
mkdir -p "$work/marketplace" "$work/provider"

rss_mib() { awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$1/status" 2>/dev/null || echo 0; }
# proportional: memory shared between processes (PostgreSQL's shared buffers) counted once in all
pss_kib() { awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0; }
postgres_pss_mib() {
    local postmaster total pid
    postmaster=$(head -n 1 "$1/postgres/postmaster.pid" 2>/dev/null) || { echo 0; return; }
    total=$(pss_kib "$postmaster")
    for pid in $(ps -o pid= --ppid "$postmaster"); do total=$((total + $(pss_kib "$pid"))); done
    echo $((total / 1024))
}
# CPU seconds of a process and all its descendants, the children it has waited for included
cpu_ticks() {
    local ticks child
    ticks=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$1/stat" 2>/dev/null || echo 0)
    for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do ticks=$((ticks + $(cpu_ticks "$child"))); done
    echo "$ticks"
}
seconds() { awk "BEGIN {printf \"%.1f\", $1 / $2}"; }
now_ms() { date +%s%3N; }

echo "== devnet on $rpc, upstream stub on port $stub_port"
ANVIL_PORT=$anvil_port sh deploy/devnet/start-anvil.sh > "$work/anvil.log" 2>&1 &
pids="$!"
UPSTREAM_STUB_PORT=$stub_port node deploy/devnet/upstream-stub.mjs > "$work/upstream-stub.log" 2>&1 &
pids="$! $pids"
for _ in $(seq 1 60); do
    curl -fs -X POST -H 'content-type: application/json' \
        --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$rpc" >/dev/null 2>&1 && break
    sleep 0.5
done
CHAN_RPC_URL=$rpc node deploy/devnet/deploy.mjs > /dev/null

# Starts a role from the archive's launcher in its own folder, and waits for health UP. Sets
# launched (its pid), ready_ms and ready_cpu (CPU seconds until then).
launch() {
    local role=$1 role_port=$2 role_url=$3 config=$4 log=$5 started
    shift 5
    started=$(now_ms)
    (cd "$work/$role" && CHAN_RPC_URL=$rpc CHAN_PUBLIC_URL=$role_url CHAN_MARKETPLACE_URL=$marketplace_url \
        CHAN_ADMIN_TOKEN=$admin_token UPSTREAM_STUB_URL="http://127.0.0.1:$stub_port" \
        exec "$home/bin/chan-$role" "$repo/$config" --spring.profiles.active=devnet --server.port="$role_port" \
            --chan.embedded-store.directory=data/store "$@") > "$work/$log.log" 2>&1 &
    launched=$!
    until curl -fs "$role_url/actuator/health" 2>/dev/null | grep -q '"UP"'; do
        kill -0 "$launched" 2>/dev/null || { echo "the $role stopped; its log:" >&2; tail -40 "$work/$log.log" >&2; exit 1; }
        sleep 0.1
    done
    ready_ms=$(($(now_ms) - started))
    ready_cpu=$(seconds "$(cpu_ticks "$launched")" 100)
}

# SIGTERM, as systemd stops it; sets stop_ms
stop_service() {
    local started
    started=$(now_ms)
    kill "$1"
    wait "$1" 2>/dev/null || true
    stop_ms=$(($(now_ms) - started))
}

# The walkthrough, round after round, for $2 minutes; sets rounds and peak_rss (MiB) of the pid in $1
paid_load() {
    local until_s=$(($(date +%s) + $2 * 60)) rss
    rounds=0
    peak_rss=0
    while [ "$(date +%s)" -lt "$until_s" ]; do
        CHAN_MARKETPLACE_URL=$marketplace_url CHAN_RPC_URL=$rpc CHAN_EXPECT_PROVIDERS=1 \
            node deploy/devnet/walkthrough.mjs > "$work/walkthrough.log" 2>&1 \
            || { echo "the walkthrough failed:" >&2; tail -20 "$work/walkthrough.log" >&2; exit 1; }
        rounds=$((rounds + 1))
        rss=$(rss_mib "$1")
        if [ "$rss" -gt "$peak_rss" ]; then peak_rss=$rss; fi
    done
}

echo "== the marketplace from the archive, on $marketplace_url"
# the load's one agent reports feedback after each walkthrough, far more often than the marketplace
# lets one client address (20, then one per 30 s)
launch marketplace "$port" "$marketplace_url" deploy/devnet/marketplace.yml marketplace \
    --chan.marketplace.feedback.refill-interval=100ms
marketplace_pid=$launched
pids="$marketplace_pid $pids"
printf 'marketplace: first start ready in %.1f s (%s CPU s)\n' "$(seconds "$ready_ms" 1000)" "$ready_cpu"

declare -a rows
run_provider() {
    local name=$1 with_load=$2 stop_it=$3
    # the load's one agent opens a channel every few seconds from loopback, far faster than the
    # look-ups of channels not yet seen on-chain are allowed per client address (one per 6 s)
    launch provider "$provider_port" "$provider_url" deploy/devnet/providers/chat-provider.yml "provider-$name" \
        --chan.listener.lookup.per-client.refill-interval=100ms
    local pid=$launched ready="$(seconds "$ready_ms" 1000) s ($ready_cpu CPU s)" memory="" after=""
    pids="$pid $pids"
    echo "provider, $name: ready in $ready"
    if [ "$with_load" = load ]; then
        if [ "$name" = "first start" ]; then
            id=$(CHAN_MARKETPLACE_URL=$marketplace_url CHAN_ADMIN_TOKEN=$admin_token CHAN_PROVIDER_URL=$provider_url \
                CHAN_PROVIDER_KEY=$provider_key node deploy/devnet/register-demo-provider.mjs)
        fi
        # listed for agents once the marketplace's health check finds it up (again, after a restart)
        for _ in $(seq 1 120); do
            curl -fs "$marketplace_url/api/mcp/providers" 2>/dev/null | grep -q "\"$id\"" && break
            sleep 1
        done
        local load_minutes=$minutes
        [ "$name" = "first start" ] && load_minutes=$first_run_minutes
        paid_load "$pid" "$load_minutes"
        memory="$(rss_mib "$pid") (peak $peak_rss) after $load_minutes min"
        after="$(postgres_pss_mib "$work/provider/data/store")"
        echo "provider, $name: $rounds walkthroughs in $load_minutes min; JVM resident $memory, its PostgreSQL $after MiB"
    fi
    stop_ms=""
    if [ "$stop_it" = stop ]; then
        stop_service "$pid"
        pids=${pids#"$pid "}
        echo "provider, $name: stopped in $(seconds "$stop_ms" 1000) s"
    fi
    rows+=("| $name | $ready | ${stop_ms:+$(seconds "$stop_ms" 1000) s} | $memory | $after | ${rounds:-} |")
    rounds=
}
run_provider "first start" load stop
run_provider "restart" load stop
run_provider "restart again" none stop

options="the launcher's JVM options"
[ -n "${CHAN_JAVA_OPTS+set}" ] && options="CHAN_JAVA_OPTS=$CHAN_JAVA_OPTS"
[ -n "${CHAN_JVM_CACHE+set}" ] && options="$options, CHAN_JVM_CACHE=$CHAN_JVM_CACHE"
printf '\n| provider (%s) | ready (CPU) | stop | JVM resident after paid load, MiB | its PostgreSQL, MiB | walkthroughs |\n|---|---|---|---|---|---|\n' \
    "$options"
printf '%s\n' "${rows[@]}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

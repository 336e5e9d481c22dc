#!/usr/bin/env bash
# GET /api/mcp/providers with 200 providers of 5 models each, at 64 connections: requests/s and
# p99 of the service (postgres profile), next to nginx serving the identical bytes from a file on
# the same machine, in the same run, and the ratio of the two.
#
# Usage: deploy/bench/providers-bench.sh [--providers=200] [--models=5] [--connections=64]
#            [--threads=2] [--duration=30s] [--warmup=20s] [--rounds=1]
# Needs PostgreSQL (CHAN_BENCH_PG_HOST/PORT/USER, default 127.0.0.1:5432 postgres, trust auth);
# installs wrk and nginx-light from the Debian packages when they are missing.
# CHAN_BENCH_SERVICE_ARGS adds arguments to the service's command line, e.g.
# "--chan.marketplace.sendfile-min-bytes=0" to measure it writing the bytes itself.
set -euo pipefail

providers=200 models=5 connections=64 threads=2 duration=30s warmup=20s rounds=1
for arg in "$@"; do
    case "$arg" in
        --providers=*) providers=${arg#*=} ;;
        --models=*) models=${arg#*=} ;;
        --connections=*) connections=${arg#*=} ;;
        --threads=*) threads=${arg#*=} ;;
        --duration=*) duration=${arg#*=} ;;
        --warmup=*) warmup=${arg#*=} ;;
        --rounds=*) rounds=${arg#*=} ;;
        *) echo "unknown argument $arg" >&2; exit 2 ;;
    esac
done

pg_host=${CHAN_BENCH_PG_HOST:-127.0.0.1} pg_port=${CHAN_BENCH_PG_PORT:-5432} pg_user=${CHAN_BENCH_PG_USER:-postgres}
service_port=${CHAN_BENCH_SERVICE_PORT:-18480} nginx_port=${CHAN_BENCH_NGINX_PORT:-18481}
database=chan_ledger_bench_providers
admin_token="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"

. "$(dirname "$0")/../lib/jdk.sh"; chan_select_jdk
cd "$(dirname "$0")/../.."

nginx_bin=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if ! command -v wrk >/dev/null || [ -z "$nginx_bin" ]; then
    apt-get update -qq
    apt-get install -y -qq wrk nginx-light >/dev/null || apt-get install -y -qq wrk nginx >/dev/null
    nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
fi

./mvnw -B -q -pl ledger-api -am package -DskipTests
jar=$(ls ledger-api/target/ledger-api-*.jar | grep -v -- '-plain' | head -1)
work=$(mktemp -d)
chmod 755 "$work"
service_pid= seeder_pid= nginx_started=
cleanup() {
    [ -n "$seeder_pid" ] && kill "$seeder_pid" 2>/dev/null || true
    [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null || true
    [ -n "$nginx_started" ] && "$nginx_bin" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true
    exec 3>&- 2>/dev/null || true
    psql -q -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" \
        >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
# resolved in the reactor (test-compile makes the sibling modules' classes the artifacts), so the seeder
# runs on this checkout's classes and never on an older snapshot in the local Maven repository
./mvnw -B -q -pl ledger-api -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$work/classpath"

psql -q -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)"
psql -q -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -c "CREATE DATABASE $database"

echo "starting the service on :$service_port (postgres profile)" >&2
CHAN_DB_URL="jdbc:postgresql://$pg_host:$pg_port/$database" CHAN_DB_USER="$pg_user" CHAN_ADMIN_TOKEN="$admin_token" \
    "$JAVA_HOME/bin/java" -Xms1g -Xmx1g -jar "$jar" --chan.role=marketplace --spring.profiles.active=postgres --server.port="$service_port" \
    --chan.marketplace.allow-private-addresses=true --chan.marketplace.marketplace-url="http://127.0.0.1:$service_port" \
    --chan.marketplace.registration.capacity=1000000 \
    --logging.level.root=WARN ${CHAN_BENCH_SERVICE_ARGS:-} >"$work/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$service_port/api/agent" >/dev/null && break
    kill -0 "$service_pid" 2>/dev/null || { cat "$work/service.log" >&2; exit 1; }
    sleep 1
done

echo "registering $providers providers of $models models" >&2
mkfifo "$work/seeder.in"
"$JAVA_HOME/bin/java" -cp "ledger-api/target/test-classes:ledger-api/target/classes:$(cat "$work/classpath")" \
    io.chanledger.api.marketplace.directory.bench.ProvidersBenchSeeder --service="http://127.0.0.1:$service_port" \
    --admin-token="$admin_token" --providers="$providers" --models="$models" <"$work/seeder.in" >"$work/seeder.log" 2>&1 &
seeder_pid=$!
exec 3>"$work/seeder.in"
until grep -q '^ready' "$work/seeder.log" 2>/dev/null; do
    kill -0 "$seeder_pid" 2>/dev/null || { cat "$work/seeder.log" >&2; exit 1; }
    sleep 1
done

url="http://127.0.0.1:$service_port/api/mcp/providers"
mkdir -p "$work/www/api/mcp"
curl -sf "$url" -o "$work/www/api/mcp/providers"
chmod -R a+rX "$work/www"
bytes=$(stat -c %s "$work/www/api/mcp/providers")
count=$(jq .count "$work/www/api/mcp/providers")

cat >"$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 10000000;
    default_type application/json;
    client_body_temp_path $work/tmp-body;
    proxy_temp_path $work/tmp-proxy;
    fastcgi_temp_path $work/tmp-fastcgi;
    uwsgi_temp_path $work/tmp-uwsgi;
    scgi_temp_path $work/tmp-scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/www;
    }
}
CONF
"$nginx_bin" -p "$work" -c "$work/nginx.conf"
nginx_started=1
curl -sf "http://127.0.0.1:$nginx_port/api/mcp/providers" -o "$work/from-nginx"
cmp -s "$work/from-nginx" "$work/www/api/mcp/providers" || { echo "nginx does not serve the same bytes" >&2; exit 1; }

# wrk prints "Requests/sec: N" and, with --latency, a line "99%  12.34ms"; p99 is given in ms here
measure() {
    wrk -t"$threads" -c"$connections" -d"$duration" --latency "$1" >"$work/wrk.out"
    local rps p99
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/wrk.out")
    p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/, "", v); v = v / 1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v = v * 1000}; printf "%.2f", v}' "$work/wrk.out")
    if grep -q "Non-2xx" "$work/wrk.out"; then echo "non-2xx answers from $1" >&2; cat "$work/wrk.out" >&2; exit 1; fi
    echo "$rps $p99"
}

echo "warming up the service for $warmup" >&2
wrk -t"$threads" -c"$connections" -d"$warmup" "$url" >/dev/null

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load before: $load"
echo "body: $bytes bytes, $count providers of $models models; wrk -t$threads -c$connections -d$duration${CHAN_BENCH_SERVICE_ARGS:+; service args: $CHAN_BENCH_SERVICE_ARGS}"
echo
echo "| round | server | requests/s | p99 (ms) |"
echo "|---|---|---:|---:|"
service_sum=0 nginx_sum=0
for round in $(seq 1 "$rounds"); do
    read -r s_rps s_p99 < <(measure "$url")
    read -r n_rps n_p99 < <(measure "http://127.0.0.1:$nginx_port/api/mcp/providers")
    echo "| $round | service GET /api/mcp/providers | $s_rps | $s_p99 |"
    echo "| $round | nginx, same bytes from a file | $n_rps | $n_p99 |"
    service_sum=$(awk -v a="$service_sum" -v b="$s_rps" 'BEGIN {print a + b}')
    nginx_sum=$(awk -v a="$nginx_sum" -v b="$n_rps" 'BEGIN {print a + b}')
done
echo
awk -v s="$service_sum" -v n="$nginx_sum" 'BEGIN {printf "service / nginx requests/s: %.2f (goal: 0.50)\n", s / n}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

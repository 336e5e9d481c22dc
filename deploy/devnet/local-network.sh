#!/usr/bin/env bash
# A whole local network in one command, shaped like the deployed one: anvil (chain id 137) with the
# channel contract, test USDC and funded wallets; the marketplace (the operator's part) on its own
# embedded store, following the chain; and two independent providers, each a process of its own
# with its own port, wallet and store, registered in the marketplace over HTTP and health-checked
# by it: one selling chat through an OpenAI-compatible API, one selling services (a word count
# priced per request, a relay lease priced per minute). Their paid APIs are the devnet's upstream
# stub (deploy/devnet/upstream-stub.mjs). Prints each part's URL and the test wallets (with a
# spare one, anvil's account 6, which no part uses: for a provider of one's own); Ctrl-C
# stops all of it. Every start begins from an empty chain and empty stores
# (./data/local-network-PORT), so a second run never meets stale state.
#
# Settings (environment): PORT (the marketplace, 8080; the providers and the stub take the next
# three ports), ANVIL_PORT (8545), CHAN_ADMIN_TOKEN (one token for every part; random when unset),
# CHAN_SKIP_BUILD=1 to reuse the built jar, CHAN_JAVA_OPTS for the services' JVM options: unset,
# each part starts with its role's defaults as the distribution's launchers do (the providers with
# deploy/dist/lib/java-options.sh's small-server options); set, even empty, it replaces them. With
# --ready-file F, writes the marketplace's URL as the first line of F once everything is up.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
. deploy/lib/node.sh
. deploy/lib/web.sh
. deploy/dist/lib/java-options.sh
chan_select_jdk
chan_ensure_node_tools

ready_file=
[ "${1:-}" = "--ready-file" ] && ready_file=$2
port=${PORT:-8080}
chat_port=$((port + 1))
services_port=$((port + 2))
stub_port=$((port + 3))
anvil_port=${ANVIL_PORT:-8545}
rpc="http://127.0.0.1:$anvil_port"
public="http://127.0.0.1:$port"
chat_url="http://127.0.0.1:$chat_port"
services_url="http://127.0.0.1:$services_port"
stub_url="http://127.0.0.1:$stub_port"
data=data/local-network-$port
admin_token=${CHAN_ADMIN_TOKEN:-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')}
jar=ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar
pids=

stop() {
    local status=$?
    trap - INT TERM EXIT
    set +e
    echo
    echo "stopping the local network"
    for pid in $pids; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    [ -n "$ready_file" ] && rm -f "$ready_file"
    exit "$status"
}
trap stop INT TERM EXIT

for p in "$port" "$chat_port" "$services_port" "$stub_port" "$anvil_port"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
        echo "port $p is already in use: stop what runs there, or set PORT / ANVIL_PORT (the providers and the stub take PORT+1..PORT+3)" >&2
        exit 1
    fi
done

if [ "${CHAN_SKIP_BUILD:-}" != 1 ] || [ ! -f "$jar" ]; then
    chan_build_web
    echo "building the service"
    ./mvnw -B -q -DskipTests install
fi
# the embedded PostgreSQL of a run whose service was killed outlives it: stop it before its files go
for pidfile in "$data"/*/postgres/postmaster.pid; do
    [ -f "$pidfile" ] || continue
    stale_pid=$(head -n 1 "$pidfile")
    if [ -n "$stale_pid" ] && [ "$(cat "/proc/$stale_pid/comm" 2>/dev/null)" = postgres ]; then
        kill "$stale_pid"
        for _ in $(seq 1 30); do kill -0 "$stale_pid" 2>/dev/null || break; sleep 1; done
    fi
done
rm -rf "$data"
mkdir -p "$data"

echo "starting anvil on $rpc"
ANVIL_PORT=$anvil_port sh deploy/devnet/start-anvil.sh > "$data/anvil.log" 2>&1 &
pids="$!"
UPSTREAM_STUB_PORT=$stub_port node deploy/devnet/upstream-stub.mjs > "$data/upstream-stub.log" 2>&1 &
pids="$! $pids"
for _ in $(seq 1 60); do
    curl -fs -X POST -H 'content-type: application/json' \
        --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$rpc" >/dev/null 2>&1 && break
    sleep 0.5
done
CHAN_RPC_URL=$rpc node deploy/devnet/deploy.mjs > "$data/devnet.json"

# One part of the network: its name, port, public URL, its JVM options and the files it adds to the
# devnet profile.
start_part() {
    local name=$1 part_port=$2 url=$3 java_opts=$4
    shift 4
    echo "starting the $name on $url (log: $data/$name.log)"
    # shellcheck disable=SC2086
    CHAN_RPC_URL=$rpc CHAN_PUBLIC_URL=$url CHAN_MARKETPLACE_URL=$public CHAN_ADMIN_TOKEN=$admin_token \
        UPSTREAM_STUB_URL=$stub_url \
        "$JAVA_HOME/bin/java" $java_opts --enable-native-access=ALL-UNNAMED -jar "$jar" \
        --spring.profiles.active=devnet --server.port="$part_port" \
        --chan.embedded-store.directory="./$data/$name" "$@" \
        > "$data/$name.log" 2>&1 &
    pids="$! $pids"
}

await_healthy() {
    local name=$1 url=$2 pid=$3
    for _ in $(seq 1 180); do
        curl -fs "$url/actuator/health" >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || { echo "the $name stopped; see $data/$name.log" >&2; exit 1; }
        sleep 1
    done
    echo "the $name did not come up; see $data/$name.log" >&2
    exit 1
}

start_part marketplace "$port" "$public" "$(chan_role_java_opts marketplace)" \
    --spring.config.additional-location=file:deploy/devnet/marketplace.yml
marketplace_pid=${pids%% *}
start_part chat-provider "$chat_port" "$chat_url" "$(chan_role_java_opts provider)" \
    --spring.config.additional-location=file:deploy/devnet/providers/chat-provider.yml
chat_pid=${pids%% *}
start_part services-provider "$services_port" "$services_url" "$(chan_role_java_opts provider)" \
    --spring.config.additional-location=file:deploy/devnet/providers/services-provider.yml
services_pid=${pids%% *}
await_healthy marketplace "$public" "$marketplace_pid"
await_healthy chat-provider "$chat_url" "$chat_pid"
await_healthy services-provider "$services_url" "$services_pid"

# each provider registers with its own wallet's signature, as the sign-up page has it do; the
# operator approves it; the marketplace then tests it and checks its health over HTTP
register() {
    CHAN_MARKETPLACE_URL=$public CHAN_ADMIN_TOKEN=$admin_token CHAN_PROVIDER_URL=$1 CHAN_PROVIDER_KEY=$2 \
        CHAN_PROVIDER_NAME=$3 CHAN_PROVIDER_DESCRIPTION=$4 CHAN_PROVIDER_CATEGORY=$5 \
        node deploy/devnet/register-demo-provider.mjs
}
chat_id=$(register "$chat_url" 0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a \
    "Chat demo provider" "Chat through an OpenAI-compatible API, metered per token. For local use." llm)
services_id=$(register "$services_url" 0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba \
    "Services demo provider" "A word count priced per request and a relay lease priced per minute. For local use." data)
echo "providers $chat_id and $services_id registered and approved; waiting for their first health checks"
for id in "$chat_id" "$services_id"; do
    for _ in $(seq 1 90); do
        curl -fs "$public/api/mcp/providers" 2>/dev/null | grep -q "\"$id\"" && break
        sleep 1
    done
done

cat <<SUMMARY

Chan Ledger local network is up.
  marketplace            $public          (web pages: $public/, providers: $public/api/mcp/providers)
  chat provider          $chat_url/v1       (pricing: $chat_url/v1/pricing, docs: $chat_url/v1/docs,
                                                  its dashboard: $chat_url/dashboard)
  services provider      $services_url/v1       (pricing: $services_url/v1/pricing, docs: $services_url/v1/docs,
                                                  its dashboard: $services_url/dashboard)
  upstream stub          $stub_url          (the providers' paid APIs)
  API document           $public/v3/api-docs
  chain (anvil, id 137)  $rpc
  channel contract       0x5FbDB2315678afecb367f032d93F642f64180aa3
  test USDC              0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359 (Polygon's USDC address; EIP-3009)
  admin token            $admin_token
Test wallets (anvil's default mnemonic; 1,000,000 test USDC each):
  agent     0x90F79bf6EB2c4f870365E785982E1f101E93b906  key 0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6
  chat provider      0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
  services provider  0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc
A spare wallet, to try a provider of your own (1,000,000 test USDC and 10,000 POL for gas; TEST ONLY:
its key is public, part of anvil's default mnemonic, so never send it anything of value):
  spare     0x976EA74026E726554dB657fA54763abd0C3a0aa9  key 0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e
Walk an agent through the protocol with both providers:
  CHAN_MARKETPLACE_URL=$public CHAN_RPC_URL=$rpc CHAN_EXPECT_PROVIDERS=2 node deploy/devnet/walkthrough.mjs
Ctrl-C stops everything.
SUMMARY
[ -n "$ready_file" ] && printf '%s\n%s\n%s\n' "$public" "$chat_url" "$services_url" > "$ready_file"
wait "$marketplace_pid"

#!/usr/bin/env bash
# A whole local network in one command: anvil (chain id 137) with the channel contract, test USDC
# and funded wallets; the service on its embedded store, following the chain; and a demo provider
# (the gateway with its echo backend) registered and approved in the marketplace. Prints the URLs
# and the test wallets; Ctrl-C stops all of it. Every start begins from an empty chain and an
# empty store (./data/local-network), so a second run never meets stale state.
#
# Settings (environment): PORT (service, 8080), ANVIL_PORT (8545), CHAN_ADMIN_TOKEN (random when
# unset), CHAN_SKIP_BUILD=1 to reuse the built jar. With --ready-file F, writes F once everything is up.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
. deploy/lib/node.sh
. deploy/lib/web.sh
chan_select_jdk
chan_ensure_node_tools

ready_file=
[ "${1:-}" = "--ready-file" ] && ready_file=$2
port=${PORT:-8080}
anvil_port=${ANVIL_PORT:-8545}
rpc="http://127.0.0.1:$anvil_port"
public="http://127.0.0.1:$port"
data=data/local-network
admin_token=${CHAN_ADMIN_TOKEN:-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')}
anvil_pid=
service_pid=

stop() {
    local status=$?
    trap - INT TERM EXIT
    set +e
    echo
    echo "stopping the local network"
    for pid in $service_pid $anvil_pid; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    [ -n "$ready_file" ] && rm -f "$ready_file"
    exit "$status"
}
trap stop INT TERM EXIT

for p in "$port" "$anvil_port"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
        echo "port $p is already in use: stop what runs there, or set PORT / ANVIL_PORT" >&2
        exit 1
    fi
done

if [ "${CHAN_SKIP_BUILD:-}" != 1 ] || [ ! -f ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar ]; then
    chan_build_web
    echo "building the service"
    ./mvnw -B -q -DskipTests install
fi
# the embedded PostgreSQL of a run whose service was killed outlives it: stop it before its files go
if [ -f "$data/postgres/postmaster.pid" ]; then
    stale_pid=$(head -n 1 "$data/postgres/postmaster.pid")
    if [ -n "$stale_pid" ] && [ "$(cat "/proc/$stale_pid/comm" 2>/dev/null)" = postgres ]; then
        kill "$stale_pid"
        for _ in $(seq 1 30); do kill -0 "$stale_pid" 2>/dev/null || break; sleep 1; done
    fi
fi
rm -rf "$data"
mkdir -p "$data"

echo "starting anvil on $rpc"
ANVIL_PORT=$anvil_port sh deploy/devnet/start-anvil.sh > "$data/anvil.log" 2>&1 &
anvil_pid=$!
for _ in $(seq 1 60); do
    curl -fs -X POST -H 'content-type: application/json' \
        --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$rpc" >/dev/null 2>&1 && break
    sleep 0.5
done
CHAN_RPC_URL=$rpc node deploy/devnet/deploy.mjs > "$data/devnet.json"

echo "starting the service on $public (log: $data/service.log)"
CHAN_RPC_URL=$rpc CHAN_PUBLIC_URL=$public CHAN_ADMIN_TOKEN=$admin_token \
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar \
    --spring.profiles.active=devnet --server.port="$port" \
    --chan.embedded-store.directory="./$data" \
    > "$data/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 120); do
    curl -fs "$public/actuator/health" >/dev/null 2>&1 && break
    kill -0 "$service_pid" 2>/dev/null || { echo "the service stopped; see $data/service.log" >&2; exit 1; }
    sleep 1
done

provider_id=$(CHAN_MARKETPLACE_URL=$public CHAN_ADMIN_TOKEN=$admin_token node deploy/devnet/register-demo-provider.mjs)
echo "demo provider $provider_id registered and approved; waiting for its first health check"
for _ in $(seq 1 60); do
    curl -fs "$public/api/mcp/providers" 2>/dev/null | grep -q "\"$provider_id\"" && break
    sleep 1
done

cat <<SUMMARY

Chan Ledger local network is up.
  web pages              $public/         (marketplace, provider sign-up, operator console, channels)
  marketplace + ledger   $public          (providers: $public/api/mcp/providers)
  demo provider gateway  $public/v1       (pricing: $public/v1/pricing, docs: $public/v1/docs)
  API document           $public/v3/api-docs
  chain (anvil, id 137)  $rpc
  channel contract       0x5FbDB2315678afecb367f032d93F642f64180aa3
  test USDC              0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512
  admin token            $admin_token
Test wallets (anvil's default mnemonic; 1,000,000 test USDC each):
  agent     0x90F79bf6EB2c4f870365E785982E1f101E93b906  key 0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6
  provider  0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC  (the demo gateway's wallet)
Walk an agent through the protocol:  node deploy/devnet/walkthrough.mjs
Ctrl-C stops everything.
SUMMARY
[ -n "$ready_file" ] && echo "$public" > "$ready_file"
wait "$service_pid"

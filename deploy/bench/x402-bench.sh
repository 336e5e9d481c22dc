#!/usr/bin/env bash
# x402-paid requests on a local network of its own (deploy/run.sh on PORT, default 18740, and
# ANVIL_PORT, default 18744: the network takes PORT to PORT+3 and ANVIL_PORT): latency p50/p99 of a request paid by the stock @x402/fetch client,
# the chain's own wait (a bare transferWithAuthorization, sent and mined) and the unpaid 402 in the
# same run, and the chat provider's CPU per request, from which verification's CPU is read
# (deploy/bench/x402-bench.mjs says how).
# Usage: deploy/bench/x402-bench.sh [requests, default 200]
# CHAN_SKIP_BUILD=1 reuses the built jar.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/lib/node.sh
chan_ensure_node_tools

port=${PORT:-18740}
anvil_port=${ANVIL_PORT:-18744}
ready=$(mktemp -u)
log=$(mktemp)
PORT=$port ANVIL_PORT=$anvil_port bash deploy/run.sh --ready-file "$ready" > "$log" 2>&1 &
network=$!
stop() { kill "$network" 2>/dev/null || true; wait "$network" 2>/dev/null || true; rm -f "$ready"; }
trap stop EXIT
for _ in $(seq 1 600); do
    [ -f "$ready" ] && break
    kill -0 "$network" 2>/dev/null || { tail -40 "$log" >&2; exit 1; }
    sleep 1
done
[ -f "$ready" ] || { echo "the local network did not come up" >&2; tail -40 "$log" >&2; exit 1; }
chat_url=$(sed -n 2p "$ready")
chat_port=${chat_url##*:}
chat_pid=$(ss -ltnpH "sport = :$chat_port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(git rev-parse --short HEAD 2>/dev/null || echo unknown), load $(cut -d' ' -f1-3 /proc/loadavg)"
BENCH_PROVIDER_URL=$chat_url BENCH_PROVIDER_PID=$chat_pid CHAN_RPC_URL=http://127.0.0.1:$anvil_port \
    BENCH_REQUESTS=${1:-200} node deploy/bench/x402-bench.mjs

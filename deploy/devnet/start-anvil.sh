#!/usr/bin/env sh
# Starts a local chain with Polygon's chain id, anvil's default mnemonic and its ten funded
# accounts. Port from ANVIL_PORT (default 8545); further arguments go to anvil as they are,
# e.g. `--timestamp 1700000000` or `--block-time 2`.
set -eu
deploy_dir=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "${CHAN_ANVIL_BIN:-}" ]; then
    anvil_bin=$CHAN_ANVIL_BIN
else
    case "$(uname -s)" in
        Linux) os=linux ;;
        Darwin) os=darwin ;;
        *) echo "unsupported OS: $(uname -s)" >&2; exit 1 ;;
    esac
    case "$(uname -m)" in
        x86_64 | amd64) arch=amd64 ;;
        aarch64 | arm64) arch=arm64 ;;
        *) echo "unsupported CPU: $(uname -m)" >&2; exit 1 ;;
    esac
    anvil_bin="$deploy_dir/node_modules/@foundry-rs/anvil-$os-$arch/bin/anvil"
fi
if [ ! -x "$anvil_bin" ]; then
    echo "anvil not found at $anvil_bin; run: npm ci --prefix deploy" >&2
    exit 1
fi

exec "$anvil_bin" \
    --chain-id 137 \
    --host 127.0.0.1 \
    --port "${ANVIL_PORT:-8545}" \
    --mnemonic "test test test test test test test test test test test junk" \
    "$@"

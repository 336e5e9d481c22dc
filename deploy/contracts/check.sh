#!/usr/bin/env sh
# CI gate: the committed artifacts must be exactly what the pinned solc makes of the sources, and
# the committed EIP-3009 vectors exactly what the pinned viem makes of their cases.
set -eu
deploy_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$deploy_dir/node_modules/solc" ]; then
    npm ci --prefix "$deploy_dir" --no-audit --no-fund
fi
node "$deploy_dir/contracts/compile.mjs" --check
exec node "$deploy_dir/contracts/eip3009-vectors.mjs" --check

#!/usr/bin/env sh
# CI gate: the committed artifacts must be exactly what the pinned solc makes of the sources.
set -eu
deploy_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$deploy_dir/node_modules/solc" ]; then
    npm ci --prefix "$deploy_dir" --no-audit --no-fund
fi
exec node "$deploy_dir/contracts/compile.mjs" --check

#!/usr/bin/env bash
# Runs the whole test suite on this machine: PostgreSQL (started, or installed when missing),
# the npm tools (anvil, solc), the check that the compiled contracts match their sources, the web
# pages' unit tests and build (Chromium installed when missing, for their end-to-end tests), then
# every module's tests with Maven. Extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/lib/jdk.sh
. deploy/lib/postgres.sh
. deploy/lib/node.sh
. deploy/lib/web.sh

chan_select_jdk
chan_ensure_postgres
chan_ensure_node_tools
sh deploy/contracts/check.sh
chan_ensure_chromium
chan_build_web --test
# the browser tests (WebPagesEndToEndTest) must run here, not skip
export CHAN_WEB_E2E=required
./mvnw -B verify "$@"

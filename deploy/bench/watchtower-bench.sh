#!/usr/bin/env bash
# Watchtower transactions per channel, for the deployed client's usual channel lengths (2 min,
# 10 min, 1 h), closed cooperatively and abandoned: runs ledger-api's ClaimTimingTest (a provider
# of its own on an anvil node of its own, whose clock it moves) and prints the table it measured.
# Usage: deploy/bench/watchtower-bench.sh
# Needs PostgreSQL as for the tests and `npm ci --prefix deploy`; builds with Maven first.
set -euo pipefail

. "$(dirname "$0")/../lib/jdk.sh"; chan_select_jdk
cd "$(dirname "$0")/../.."

./mvnw -B -q -pl ledger-api -am verify -DskipITs -Dtest=ClaimTimingTest -Dsurefire.failIfNoSpecifiedTests=false
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
grep -A5 '^Watchtower transactions per channel' \
    ledger-api/target/surefire-reports/io.chanledger.api.provider.watchtower.ClaimTimingTest-output.txt

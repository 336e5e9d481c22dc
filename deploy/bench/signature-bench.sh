#!/usr/bin/env bash
# Throughput of secp256k1 recovery and EIP-712 digests (ledger-domain's SignatureBench).
# Usage: deploy/bench/signature-bench.sh [--warmup=2] [--seconds=2] [--rounds=3] [--threads=1,2] [--only=text]
# Builds with Maven first (fetching what the local repository lacks).
set -euo pipefail

. "$(dirname "$0")/../lib/jdk.sh"; chan_select_jdk
cd "$(dirname "$0")/../.."

./mvnw -B -q -pl ledger-domain test-compile

classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
./mvnw -B -q -pl ledger-domain dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file"

echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
exec "$JAVA_HOME/bin/java" -Xms256m -Xmx256m \
    -cp "ledger-domain/target/test-classes:ledger-domain/target/classes:$(cat "$classpath_file")" \
    io.chanledger.domain.eip712.bench.SignatureBench "$@"

#!/usr/bin/env bash
# Builds and runs the service on its embedded default store (./data), with nothing else to
# install. Extra arguments go to the service (e.g. --server.port=9090).
set -euo pipefail
cd "$(dirname "$0")/.."
. deploy/lib/jdk.sh
chan_select_jdk
./mvnw -B -q -DskipTests install
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar ledger-api/target/ledger-api-0.1.0-SNAPSHOT.jar "$@"

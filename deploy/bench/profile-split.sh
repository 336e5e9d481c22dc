#!/usr/bin/env bash
# Splits a JFR recording of a bench's service by thread group and by the owner of the code each
# execution sample was in (Axon, the JDBC driver, Jackson, Tomcat…), paid seconds apart from
# unpaid ones (ledger-api's ProfileSplit); with methods named as steps, each sample also goes to the
# innermost of them on its stack, only those of one owner's code with --owner=NAME. Record with the
# stacks whole, e.g.
#   BENCH_JAVA_OPTS="-XX:StartFlightRecording=filename=gateway.jfr,settings=profile
#   -XX:FlightRecorderOptions:stackdepth=256" deploy/bench/gateway-bench.sh 64 600
# Usage: deploy/bench/profile-split.sh <recording.jfr> [--owner=NAME] [Class.method ...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: deploy/bench/profile-split.sh <recording.jfr> [--owner=NAME] [Class.method ...]" >&2; exit 2; }
recording=$(realpath "$1")
shift
cd "$(dirname "$0")/../.."
. deploy/lib/jdk.sh
chan_select_jdk
./mvnw -B -q -pl ledger-api -am test-compile
exec "$JAVA_HOME/bin/java" -cp ledger-api/target/test-classes io.chanledger.api.bench.ProfileSplit "$recording" "$@"

# Sourced by bin/chan-provider and bin/chan-marketplace, which set chan_role, chan_default_config
# and chan_launcher (their own resolved path): finds a Java of version 21 or later and replaces the
# shell with the service's jar in that role, configured by one file. POSIX sh, no bashisms: the
# distribution runs where bash may be missing.

chan_fail() {
    echo "chan-$chan_role: $*" >&2
    exit 1
}

chan_home=$(cd "$(dirname "$chan_launcher")/.." && pwd) || chan_fail "cannot find the installation folder"
chan_jar=$chan_home/lib/chan-ledger.jar
[ -f "$chan_jar" ] || chan_fail "$chan_jar is missing: unpack the whole distribution"

if [ -n "${JAVA_HOME:-}" ]; then
    chan_java=$JAVA_HOME/bin/java
    [ -x "$chan_java" ] || chan_fail "JAVA_HOME is $JAVA_HOME, which holds no bin/java: point it at a Java of version 21 or later, or unset it to use the java on PATH"
elif command -v java >/dev/null 2>&1; then
    chan_java=$(command -v java)
else
    chan_fail "no Java found: install a Java runtime of version 21 or later and put its java on PATH, or set JAVA_HOME to it"
fi
# java.specification.version is 21, 25, … (1.8 for Java 8, read as 1)
chan_java_major=$("$chan_java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
if [ -z "$chan_java_major" ] || [ "$chan_java_major" -lt 21 ]; then
    chan_fail "$chan_java is Java ${chan_java_major:-of an unknown version}; Chan Ledger needs 21 or later: set JAVA_HOME to one"
fi

# the first argument is the configuration file unless it is a setting (--name=value)
chan_config=
case "${1:-}" in
    ''|-*) ;;
    *) chan_config=$1; shift ;;
esac
[ -n "$chan_config" ] || chan_config=${CHAN_CONFIG:-$chan_home/$chan_default_config}
[ -f "$chan_config" ] && [ -r "$chan_config" ] || chan_fail "cannot read the configuration file $chan_config"
# absolute, so the service reads the same file whatever folder it is started from
case "$chan_config" in
    /*) ;;
    *) chan_config=$(cd "$(dirname "$chan_config")" && pwd)/$(basename "$chan_config") ;;
esac

# the role's JVM options, unless CHAN_JAVA_OPTS replaces them (lib/java-options.sh)
. "$chan_home/lib/java-options.sh"
chan_java_opts=$(chan_role_java_opts "$chan_role")

# exec: the service is this process, so SIGTERM from systemd or a supervisor reaches the JVM, which
# stops the service and then its embedded store. The options are split into words on purpose.
# shellcheck disable=SC2086
exec "$chan_java" --enable-native-access=ALL-UNNAMED $chan_java_opts -jar "$chan_jar" \
    --chan.role="$chan_role" --spring.config.additional-location="file:$chan_config" "$@"

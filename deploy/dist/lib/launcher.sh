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
chan_java_settings=$("$chan_java" -XshowSettings:properties -version 2>&1)
# java.specification.version is 21, 25, … (1.8 for Java 8, read as 1)
chan_java_major=$(printf '%s\n' "$chan_java_settings" | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
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

# The class cache: a restart loads the classes the last run used, already parsed and linked, from
# the JVM's AOT cache (Java 25 or later; a class data sharing archive before), about a third of
# the CPU a start costs without it (the repository's BENCHMARKS.md, "Each party's footprint"). The
# JVM caches only classes read from plain jars on its class path, so the jar's are extracted once,
# into CHAN_JVM_CACHE (default data/jvm-cache under the folder the service starts in; set empty,
# no cache: the jar runs as it is). The first run records what it loads and writes the cache when
# it stops (some seconds more at that stop); a new jar or another Java makes a new one.
chan_jar_run=$chan_jar
chan_cache_opts=
chan_cache_root=${CHAN_JVM_CACHE-data/jvm-cache}
case "$chan_cache_root" in
    # the JVM's options are split into words below: a folder with blanks in its name gets no cache
    *[[:space:]]*) echo "chan-$chan_role: CHAN_JVM_CACHE ($chan_cache_root) has blanks; starting without the class cache" >&2
        chan_cache_root= ;;
esac
if [ -n "$chan_cache_root" ]; then
    # a folder per installation (whose folder names the version), a cache per role and Java build
    chan_java_build=$(printf '%s\n' "$chan_java_settings" | sed -n 's/^ *java\.vm\.version = //p' | tr -c 'A-Za-z0-9._+\n-' _)
    chan_cache=$chan_cache_root/$(basename "$chan_home")
    # the jar as it is now (size and time): another one in its place is extracted again
    chan_jar_stamp=$(ls -lnL "$chan_jar" | awk '{print $5, $6, $7, $8}')
    if [ "$(cat "$chan_cache/jar.stamp" 2>/dev/null)" != "$chan_jar_stamp" ]; then
        # extracted beside, then moved in whole: a start racing this one never runs half a folder
        chan_extracting=$chan_cache_root/.extracting.$$
        rm -rf "$chan_extracting"
        if mkdir -p "$chan_extracting" \
            && "$chan_java" -Djarmode=tools -jar "$chan_jar" extract --destination "$chan_extracting/app" \
                > "$chan_extracting/extract.log" 2>&1 \
            && printf '%s\n' "$chan_jar_stamp" > "$chan_extracting/jar.stamp" \
            && rm -rf "$chan_cache" && mv "$chan_extracting" "$chan_cache"; then
            :
        else
            echo "chan-$chan_role: cannot extract the jar into $chan_cache_root; starting without the class cache" >&2
            rm -rf "$chan_extracting"
        fi
    fi
    if [ -f "$chan_cache/jar.stamp" ]; then
        chan_jar_run=$chan_cache/app/chan-ledger.jar
        if [ "$chan_java_major" -ge 25 ]; then
            chan_aot=$chan_cache/$chan_role-$chan_java_build.aot
            if [ -f "$chan_aot" ]; then
                chan_cache_opts="-XX:AOTCache=$chan_aot"
            else
                chan_cache_opts="-XX:AOTCacheOutput=$chan_aot"
            fi
            # the cache's own notes (classes it leaves out) are no news to an operator; its errors are
            chan_cache_opts="$chan_cache_opts -Xlog:aot*=error,cds*=error"
        else
            chan_cache_opts="-XX:SharedArchiveFile=$chan_cache/$chan_role-$chan_java_build.jsa -XX:+AutoCreateSharedArchive -Xlog:cds*=error"
        fi
    fi
fi

# exec: the service is this process, so SIGTERM from systemd or a supervisor reaches the JVM, which
# stops the service and then its embedded store. The options are split into words on purpose.
# shellcheck disable=SC2086
exec "$chan_java" --enable-native-access=ALL-UNNAMED $chan_java_opts $chan_cache_opts -jar "$chan_jar_run" \
    --chan.role="$chan_role" --spring.config.additional-location="file:$chan_config" "$@"

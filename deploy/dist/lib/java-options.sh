# The JVM options each role starts with when CHAN_JAVA_OPTS is not set; set, even empty, it
# replaces them (empty: the JVM's own defaults). A provider's are for a small server (BENCHMARKS.md,
# "Each party's footprint"): the serial collector, a heap that starts at 128 MiB and gives memory
# back, smaller thread stacks and code cache (the heap is not what fills a provider at rest: G1's
# and the JIT's overheads, sized by the JVM for the machine's whole memory, are). Under thousands
# of paid requests a second a provider holds some 60 MiB, and a heap that may grow to 256 MiB
# collects in full about every half minute where one capped at 128 MiB did every few seconds
# (docs/operations.md). A marketplace keeps the JVM's defaults. Sourced by lib/launcher.sh, and by
# the local network and the benches of the sources. POSIX sh.
# shellcheck disable=SC2034
chan_provider_java_opts="-XX:+UseSerialGC -Xms128m -Xmx256m -XX:MaxHeapFreeRatio=30 -XX:MinHeapFreeRatio=10 -Xss512k -XX:ReservedCodeCacheSize=64m"
# shellcheck disable=SC2034
chan_marketplace_java_opts=

# Prints the JVM options of the role in $1 (provider; any other role gets the marketplace's),
# or CHAN_JAVA_OPTS when it is set, even empty. The one place a role's options are chosen.
chan_role_java_opts() {
    if [ -n "${CHAN_JAVA_OPTS+set}" ]; then
        printf '%s' "$CHAN_JAVA_OPTS"
    elif [ "$1" = provider ]; then
        printf '%s' "$chan_provider_java_opts"
    else
        printf '%s' "$chan_marketplace_java_opts"
    fi
}

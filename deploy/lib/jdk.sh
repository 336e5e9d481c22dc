# Sourced by the run and test scripts: points JAVA_HOME at a JDK of version 21 or later.
# Keeps a JAVA_HOME that already qualifies; otherwise looks at the JDKs installed beside the
# default one (the default JDK on our build machines is 17, too old for web3j 4.14).

chan_java_major() {
    "$1/bin/java" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}

chan_select_jdk() {
    local candidate major
    for candidate in "${JAVA_HOME:-}" $(ls -d /usr/lib/jvm/*/ /opt/java/*/ /opt/jdk*/ 2>/dev/null | sort -rV); do
        candidate=${candidate%/}
        [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
        major=$(chan_java_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 21 ]; then
            export JAVA_HOME="$candidate"
            export PATH="$JAVA_HOME/bin:$PATH"
            return 0
        fi
    done
    echo "No JDK 21 or later found. Install one and set JAVA_HOME to it." >&2
    return 1
}

# Sourced by the test script: makes sure a PostgreSQL server answers on the test address,
# starting an installed cluster that is down, or installing one from Debian packages.

CHAN_TEST_PG_HOST=${CHAN_TEST_PG_HOST:-127.0.0.1}
CHAN_TEST_PG_PORT=${CHAN_TEST_PG_PORT:-5432}
export CHAN_TEST_PG_HOST CHAN_TEST_PG_PORT

chan_pg_ready() {
    if command -v pg_isready >/dev/null 2>&1; then
        pg_isready -q -h "$CHAN_TEST_PG_HOST" -p "$CHAN_TEST_PG_PORT"
    else
        (exec 3<>"/dev/tcp/$CHAN_TEST_PG_HOST/$CHAN_TEST_PG_PORT") 2>/dev/null
    fi
}

chan_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

chan_start_pg_clusters() {
    local version
    for version in $(ls /etc/postgresql 2>/dev/null); do
        chan_as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null \
            || chan_as_root pg_ctlcluster "$version" main start 2>/dev/null || true
    done
}

chan_wait_pg() {
    local i
    for i in $(seq 1 30); do
        chan_pg_ready && return 0
        sleep 1
    done
    return 1
}

chan_ensure_postgres() {
    chan_pg_ready && return 0
    if [ -d /etc/postgresql ] && [ -n "$(ls /etc/postgresql 2>/dev/null)" ]; then
        echo "PostgreSQL is installed but not answering: starting it" >&2
        chan_start_pg_clusters
        chan_wait_pg && return 0
    fi
    if [ "$CHAN_TEST_PG_HOST" != "127.0.0.1" ] && [ "$CHAN_TEST_PG_HOST" != "localhost" ]; then
        echo "PostgreSQL at $CHAN_TEST_PG_HOST:$CHAN_TEST_PG_PORT does not answer" >&2
        return 1
    fi
    echo "PostgreSQL is not installed: installing it from Debian packages" >&2
    chan_as_root apt-get update -q
    chan_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql
    chan_start_pg_clusters
    chan_wait_pg || { echo "PostgreSQL did not start" >&2; return 1; }
    # A cluster we installed ourselves gets a known password for the tests' TCP connections.
    chan_as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\""
    export CHAN_TEST_PG_PASSWORD=${CHAN_TEST_PG_PASSWORD:-postgres}
}

# Sourced by the scripts that build or test the web pages of web/: installs their locked npm
# packages when not installed, builds them into web/dist (which the Maven build copies into the
# service's jar), and installs Debian's Chromium for the end-to-end tests when missing.

chan_web_dir() {
    (cd "$(dirname "${BASH_SOURCE[0]}")/../../web" && pwd)
}

chan_ensure_web_packages() {
    local web_dir
    web_dir=$(chan_web_dir)
    if [ ! -f "$web_dir/node_modules/.package-lock.json" ] \
        || [ "$web_dir/package-lock.json" -nt "$web_dir/node_modules/.package-lock.json" ]; then
        npm ci --prefix "$web_dir" --no-audit --no-fund
    fi
}

# Builds the pages; with --test, runs their unit tests first.
chan_build_web() {
    local web_dir
    web_dir=$(chan_web_dir)
    chan_ensure_web_packages
    if [ "${1:-}" = "--test" ]; then
        echo "== web pages: unit tests"
        npm test --prefix "$web_dir" --silent
    fi
    echo "== web pages: build"
    npm run build --prefix "$web_dir" --silent
}

# The end-to-end tests drive the distribution's Chromium (never a browser downloaded by Playwright).
chan_ensure_chromium() {
    local browser=${CHAN_CHROMIUM:-/usr/bin/chromium}
    [ -x "$browser" ] && return 0
    echo "Chromium is not installed: installing it from Debian packages" >&2
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
    else
        sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
    fi
}

# Sourced by the scripts that need the npm tools of deploy/ (anvil for the local chain, solc for
# the contracts): installs Node.js when missing, and the locked npm packages when not installed.

chan_ensure_node_tools() {
    local deploy_dir
    deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    if ! command -v npm >/dev/null 2>&1; then
        echo "Node.js is not installed: installing it from Debian packages" >&2
        if [ "$(id -u)" -eq 0 ]; then
            apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
        else
            sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
        fi
    fi
    if [ ! -f "$deploy_dir/node_modules/.package-lock.json" ] \
        || [ "$deploy_dir/package-lock.json" -nt "$deploy_dir/node_modules/.package-lock.json" ]; then
        npm ci --prefix "$deploy_dir" --no-audit --no-fund
    fi
}

#!/usr/bin/env bash
# Runs Chan Ledger on this machine with nothing to install but a JDK and Node.js: a local chain
# (anvil, chain id 137, the contracts, funded test wallets), the service on its embedded store
# (./data) following that chain, and a demo provider registered and approved in the marketplace.
# See deploy/devnet/local-network.sh for its settings; Ctrl-C stops everything.
exec bash "$(dirname "$0")/devnet/local-network.sh" "$@"

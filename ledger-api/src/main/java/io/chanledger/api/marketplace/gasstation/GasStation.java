package io.chanledger.api.marketplace.gasstation;

/**
 * What answers {@code POST /api/gas-station}: a station paying from a faucet on a node, or, when
 * the service has no faucet key, RPC URL or USDC address, one that refuses every request and says
 * why. Either counts its refusals.
 */
sealed interface GasStation permits EnabledGasStation, DisabledGasStation {

    GasStationReply request(String address);

    /** Counts a refusal made before the station was asked (malformed body, rate limit). */
    GasStationReply counted(GasStationReply reply);
}

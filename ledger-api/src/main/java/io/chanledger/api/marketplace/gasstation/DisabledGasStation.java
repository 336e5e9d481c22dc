package io.chanledger.api.marketplace.gasstation;

/** The gas station of a service without a faucet: every request is answered {@code gas_station_disabled}. */
record DisabledGasStation(String reason, GasStationMetrics metrics) implements GasStation {

    @Override
    public GasStationReply request(String address) {
        return counted(GasStationReply.disabled());
    }

    @Override
    public GasStationReply counted(GasStationReply reply) {
        return metrics.counted(reply);
    }
}

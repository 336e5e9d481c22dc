package io.chanledger.projections.readmodel;

/**
 * The channel read models (channel balances and provider accounts) share one processing group:
 * one stream of the event store feeds both, each batch of events updates both in one
 * transaction together with the processor's token, and a reset rebuilds both.
 */
public final class ReadModels {

    public static final String CHANNEL_PROCESSING_GROUP = "channel-read-models";

    private ReadModels() {
    }
}

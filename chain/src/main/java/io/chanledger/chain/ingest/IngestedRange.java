package io.chanledger.chain.ingest;

/**
 * The message a batch's unit of work runs for: blocks {@code fromBlock}..{@code toBlock} of the
 * channel contract. Its id becomes the correlation id of every event the batch records.
 */
public record IngestedRange(String listenerId, long fromBlock, long toBlock) {
}

package io.chanledger.chain.ingest;

/**
 * The message a batch's unit of work runs for: blocks {@code fromBlock}..{@code toBlock} of the
 * channel contract.
 */
public record IngestedRange(String listenerId, long fromBlock, long toBlock) {
}

package io.chanledger.api.ledger.chain;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.lang.Nullable;

/**
 * The chain listener's state as its health indicator judges it ({@link ListenerHealthIndicator}):
 * the health's details, and the listener's part of the provider's dashboard. Block numbers are -1
 * until known.
 */
@Schema(name = "ListenerState")
public record ListenerReport(
        @Schema(requiredMode = REQUIRED, allowableValues = {"UP", "DOWN", "UNKNOWN"}) String status,
        @Schema(description = "why it is DOWN: CHAIN_ID_MISMATCH, SIGNING_DOMAIN_MISMATCH, REORG, CHAIN_FACT_CONFLICT "
                + "(halted for good), RPC_FAILURES (polls keep failing), BEHIND_HEAD (behind the chain's head for "
                + "longer than chan.listener.lag.grace)") @Nullable String reason,
        @Schema(description = "what happened, in words") @Nullable String detail,
        @Schema(requiredMode = REQUIRED, allowableValues = {"STARTING", "RUNNING", "HALTED"}) String state,
        @Schema(requiredMode = REQUIRED, description = "the chain's head at the last poll") long headBlock,
        @Schema(requiredMode = REQUIRED, description = "the latest final block, by chan.listener.finality")
        long finalizedBlock,
        @Schema(requiredMode = REQUIRED, description = "the last block the ledger has recorded completely")
        long checkpointBlock,
        @Schema(requiredMode = REQUIRED, description = "final blocks not recorded yet") long lagBlocks,
        @Schema(requiredMode = REQUIRED, description = "blocks between the checkpoint and the head") long blocksBehind,
        @Schema(requiredMode = REQUIRED, description = "chain time (block timestamps) between the checkpoint block "
                + "and the head, in seconds; -1 until known") long secondsBehind,
        @Schema(description = "since when the ledger's view has trailed the head beyond chan.listener.lag."
                + "max-blocks or max-chain-time; absent while it does not") @Nullable Instant behindSince,
        @Schema(requiredMode = REQUIRED, description = "failed polls in a row") long consecutiveFailures,
        @Schema(description = "the latest failed poll's message") @Nullable String lastFailure) {

    /** The health's details: every member but the status, those without a value left out. */
    Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        if (reason != null) {
            details.put("reason", reason);
        }
        if (detail != null) {
            details.put("detail", detail);
        }
        details.put("state", state);
        details.put("headBlock", headBlock);
        details.put("finalizedBlock", finalizedBlock);
        details.put("checkpointBlock", checkpointBlock);
        details.put("lagBlocks", lagBlocks);
        details.put("blocksBehind", blocksBehind);
        details.put("secondsBehind", secondsBehind);
        if (behindSince != null) {
            details.put("behindSince", behindSince.toString());
        }
        details.put("consecutiveFailures", consecutiveFailures);
        if (lastFailure != null) {
            details.put("lastFailure", lastFailure);
        }
        return details;
    }
}

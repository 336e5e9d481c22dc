package io.chanledger.api.ledger.audit;

/**
 * One violation found by an audit. {@code line} is the export's line number (1-based, 0 when the
 * finding is not about one line), {@code code} a stable name, {@code detail} for people.
 */
public record Finding(long line, long globalIndex, String channelId, String code, String detail) {

    @Override
    public String toString() {
        return (line > 0 ? "line " + line + ", event " + globalIndex + ", " : "")
                + (channelId == null ? "" : "channel " + channelId + ": ") + code + " — " + detail;
    }
}

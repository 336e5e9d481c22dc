package io.chanledger.chain.ingest;

/**
 * Which blocks count as final: those up to the node's {@code finalized} block, or those at least
 * {@code depth} blocks below the head.
 */
public record Finality(Mode mode, int depth) {

    public enum Mode { FINALIZED, DEPTH }

    public Finality {
        if (depth < 0) {
            throw new IllegalArgumentException("finality depth must not be negative");
        }
    }

    public static Finality finalizedTag() {
        return new Finality(Mode.FINALIZED, 0);
    }

    public static Finality depth(int depth) {
        return new Finality(Mode.DEPTH, depth);
    }

    @Override
    public String toString() {
        return mode == Mode.FINALIZED ? "finalized" : "head-" + depth;
    }
}

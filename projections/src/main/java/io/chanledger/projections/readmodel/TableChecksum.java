package io.chanledger.projections.readmodel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 over a table's rows in key order, each row as one canonical text line, so that the same
 * rows give the same checksum whatever the database, the instance or the order they were written in.
 */
public record TableChecksum(String table, long rows, String sha256) {

    /** Accumulates canonical row lines. */
    public static final class Builder {
        private final String table;
        private final MessageDigest digest;
        private long rows;

        public Builder(String table) {
            this.table = table;
            try {
                this.digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
        }

        public void add(String canonicalRow) {
            digest.update(canonicalRow.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
            rows++;
        }

        public TableChecksum build() {
            return new TableChecksum(table, rows, HexFormat.of().formatHex(digest.digest()));
        }
    }

    /** Joins the fields with '|', null as the empty string. */
    public static String line(Object... fields) {
        StringBuilder out = new StringBuilder(256);
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                out.append('|');
            }
            if (fields[i] != null) {
                out.append(fields[i]);
            }
        }
        return out.toString();
    }
}

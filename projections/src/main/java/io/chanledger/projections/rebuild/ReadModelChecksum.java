package io.chanledger.projections.rebuild;

import io.chanledger.projections.readmodel.TableChecksum;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The checksum of every channel read model: each table's SHA-256 over its rows in key order, and
 * one SHA-256 over those, which is what a replay compares.
 */
public record ReadModelChecksum(String sha256, List<TableChecksum> tables) {

    static ReadModelChecksum of(List<TableChecksum> tables) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (TableChecksum table : tables) {
                digest.update((table.table() + ":" + table.rows() + ":" + table.sha256() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return new ReadModelChecksum(HexFormat.of().formatHex(digest.digest()), List.copyOf(tables));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("sha256:").append(sha256);
        for (TableChecksum table : tables) {
            out.append(' ').append(table.table()).append('=').append(table.rows()).append(" rows/")
                    .append(table.sha256(), 0, 16);
        }
        return out.toString();
    }
}

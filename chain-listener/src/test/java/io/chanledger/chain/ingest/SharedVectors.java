package io.chanledger.chain.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared EIP-712 vectors beside the repository: {@code CHAN_VECTORS} (system property or
 * environment) or the first {@code shared/vectors/eip712-vectors.json} found walking up from the
 * working directory. Missing vectors fail the test instead of skipping it.
 */
public final class SharedVectors {

    private static final String RELATIVE = "shared/vectors/eip712-vectors.json";
    private static JsonNode root;

    private SharedVectors() {
    }

    public static synchronized JsonNode root() {
        if (root == null) {
            Path file = locate();
            try {
                root = new ObjectMapper().readTree(file.toFile());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the vectors at " + file, e);
            }
        }
        return root;
    }

    public static List<JsonNode> list(String field) {
        List<JsonNode> cases = new ArrayList<>();
        root().path(field).forEach(cases::add);
        if (cases.isEmpty()) {
            throw new AssertionError("the vectors have no '" + field + "' cases");
        }
        return cases;
    }

    public static JsonNode byId(String field, String id) {
        return list(field).stream().filter(c -> id.equals(c.path("id").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + field + " case " + id));
    }

    private static Path locate() {
        String configured = System.getProperty("CHAN_VECTORS", System.getenv("CHAN_VECTORS"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(RELATIVE);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("vectors not found: no " + RELATIVE + " above " + start + "; set CHAN_VECTORS");
    }
}

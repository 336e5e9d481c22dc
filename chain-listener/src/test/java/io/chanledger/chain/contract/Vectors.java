package io.chanledger.chain.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The shared EIP-712 vectors, kept beside the repository. Found through {@code CHAN_VECTORS}
 * (system property or environment), else by walking up from the working directory to the first
 * ancestor holding {@code shared/vectors/eip712-vectors.json}. Missing vectors fail the test.
 */
final class Vectors {

    private static final String RELATIVE = "shared/vectors/eip712-vectors.json";
    private static JsonNode root;

    private Vectors() {
    }

    static synchronized JsonNode root() {
        if (root == null) {
            Path file = locate();
            try {
                root = new ObjectMapper().readTree(file.toFile());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the EIP-712 vectors at " + file, e);
            }
        }
        return root;
    }

    static List<JsonNode> list(String field) {
        List<JsonNode> cases = new ArrayList<>();
        root().path(field).forEach(cases::add);
        if (cases.isEmpty()) {
            throw new AssertionError("the EIP-712 vectors have no '" + field + "' cases");
        }
        return cases;
    }

    static JsonNode byId(String field, String id) {
        return list(field).stream().filter(node -> id.equals(node.path("id").asText())).findFirst()
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
        throw new AssertionError("EIP-712 vectors not found: no " + RELATIVE + " above " + start
                + "; set CHAN_VECTORS to the file");
    }
}

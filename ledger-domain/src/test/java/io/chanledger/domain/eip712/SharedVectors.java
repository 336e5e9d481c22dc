package io.chanledger.domain.eip712;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;

/**
 * The shared EIP-712 vectors, kept beside the repository rather than inside it. Found through
 * {@code -DCHAN_VECTORS} / {@code $CHAN_VECTORS}, else by walking up from the working directory
 * to the first ancestor holding {@code shared/vectors/eip712-vectors.json}. A missing file is a
 * failure, never a skip: without it the known-answer tests would pass vacuously.
 */
final class SharedVectors {

    static final String RELATIVE = "shared/vectors/eip712-vectors.json";

    private static JsonNode root;

    private SharedVectors() {
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
        List<JsonNode> out = new ArrayList<>();
        root().path(field).forEach(out::add);
        if (out.isEmpty()) {
            throw new AssertionError("the EIP-712 vectors have no '" + field + "' cases");
        }
        return out;
    }

    /**
     * A dynamic test whose failure names the vector case: surefire's XML report only numbers
     * dynamic tests, so the id goes into the message as well.
     */
    static DynamicTest caseTest(String displayName, String id, Executable body) {
        return DynamicTest.dynamicTest(displayName, () -> {
            try {
                body.execute();
            } catch (AssertionError e) {
                throw new AssertionError("vector case " + id + ": " + e.getMessage(), e);
            }
        });
    }

    static String privateKeyOf(String label) {
        for (JsonNode key : list("keys")) {
            if (key.path("label").asText().equals(label)) {
                return key.path("privateKey").asText();
            }
        }
        throw new AssertionError("no key labelled " + label + " in the vectors");
    }

    static Eip712Domain domainOf(JsonNode node) {
        return new Eip712Domain(node.path("name").asText(), node.path("version").asText(),
                node.path("chainId").asLong(), node.path("verifyingContract").asText());
    }

    private static Path locate() {
        String configured = System.getProperty("CHAN_VECTORS", System.getenv("CHAN_VECTORS"));
        if (configured != null && !configured.isBlank()) {
            Path file = Path.of(configured);
            if (!Files.isRegularFile(file)) {
                throw new AssertionError("CHAN_VECTORS points at " + file + ", which is not a file");
            }
            return file;
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

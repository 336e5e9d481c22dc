package io.chanledger.domain.eip712;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;

/**
 * The EIP-712 and event-log known-answer vectors, {@code vectors/eip712-vectors.json} among this
 * module's test resources (made with independent EVM libraries, see the README beside it), shared
 * with the other modules' tests through this module's test jar. A missing file or an empty list of
 * cases is a failure, never a skip: without them the known-answer tests would pass vacuously.
 */
public final class KnownAnswerVectors {

    private static final String RESOURCE = "/vectors/eip712-vectors.json";

    private static JsonNode root;

    private KnownAnswerVectors() {
    }

    public static synchronized JsonNode root() {
        if (root == null) {
            try (InputStream in = KnownAnswerVectors.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new AssertionError("the known-answer vectors " + RESOURCE + " are not on the test class path");
                }
                root = new ObjectMapper().readTree(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the known-answer vectors " + RESOURCE, e);
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
}

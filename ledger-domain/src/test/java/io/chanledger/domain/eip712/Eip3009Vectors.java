package io.chanledger.domain.eip712;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The EIP-3009 known-answer vectors of USDC's signing domain, {@code vectors/eip3009-vectors.json}
 * among this module's test resources (made with viem, see the README beside it), shared with the
 * other modules' tests through this module's test jar. As with {@link KnownAnswerVectors}, a missing
 * file or an empty list of cases is a failure, never a skip.
 */
public final class Eip3009Vectors {

    private static final String RESOURCE = "/vectors/eip3009-vectors.json";

    private static JsonNode root;

    private Eip3009Vectors() {
    }

    public static synchronized JsonNode root() {
        if (root == null) {
            try (InputStream in = Eip3009Vectors.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new AssertionError("the EIP-3009 vectors " + RESOURCE + " are not on the test class path");
                }
                root = new ObjectMapper().readTree(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the EIP-3009 vectors " + RESOURCE, e);
            }
        }
        return root;
    }

    /** The signed authorizations, each with its message, struct hash, digest and signature. */
    public static List<JsonNode> authorizations() {
        List<JsonNode> cases = new ArrayList<>();
        root().path("authorizations").forEach(cases::add);
        if (cases.isEmpty()) {
            throw new AssertionError("the EIP-3009 vectors have no authorizations");
        }
        return cases;
    }

    public static JsonNode authorization(String id) {
        return authorizations().stream().filter(c -> id.equals(c.path("id").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no EIP-3009 vector " + id));
    }

    /** The case's own domain when it has one, else the file's (Polygon's USDC). */
    public static JsonNode domainOf(JsonNode authorization) {
        return authorization.has("domain") ? authorization.path("domain") : root().path("domain");
    }

    public static String privateKeyOf(String label) {
        for (JsonNode key : root().path("keys")) {
            if (key.path("label").asText().equals(label)) {
                return key.path("privateKey").asText();
            }
        }
        throw new AssertionError("no key labelled " + label + " in the EIP-3009 vectors");
    }
}

package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.List;
import java.util.Set;

/**
 * What a non-chat service takes: its parameters' JSON Schema (draft 2020-12, an object at the
 * top), an example of them, and a line describing it; and, when the provider declares it, what a
 * valid answer is: the JSON Schema of the service's answer, which an answer must match to be
 * charged. Parsed and checked once at start-up: a schema that is not JSON or not a valid schema,
 * a parameters' schema not of an object, or an example that it refuses, stops the start with a
 * message naming the model.
 */
final class ServiceParameters {

    /** How many of a request's schema violations a 400 names; the rest are counted. */
    private static final int VIOLATIONS_NAMED = 5;

    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private final ObjectNode schemaNode;
    private final JsonSchema schema;
    private final ObjectNode example;
    private final String description;
    /** The schema of a valid answer; null when the provider declared none. */
    private final JsonSchema answerSchema;

    private ServiceParameters(ObjectNode schemaNode, JsonSchema schema, ObjectNode example, String description,
                              JsonSchema answerSchema) {
        this.schemaNode = schemaNode;
        this.schema = schema;
        this.example = example;
        this.description = description;
        this.answerSchema = answerSchema;
    }

    static ServiceParameters declare(String model, String schemaText, String exampleText, String description,
                                     String answerSchemaText, ObjectMapper json) {
        String where = "chan.gateway.models[" + model + "]";
        if (GatewayProperties.blank(schemaText)) {
            throw new IllegalStateException(where + ".parameters: a model of an http upstream declares its "
                    + "parameters as a JSON Schema");
        }
        JsonNode schemaNode = parse(where + ".parameters", schemaText, json);
        if (!(schemaNode instanceof ObjectNode schemaObject) || !"object".equals(schemaNode.path("type").asText())
                || !schemaNode.path("properties").isObject()) {
            throw new IllegalStateException(where + ".parameters must be a JSON Schema of an object "
                    + "(\"type\": \"object\" with \"properties\")");
        }
        JsonSchema schema = compile(where + ".parameters", schemaNode);
        JsonSchema answerSchema = null;
        if (!GatewayProperties.blank(answerSchemaText)) {
            JsonNode answerNode = parse(where + ".answer-schema", answerSchemaText, json);
            if (!answerNode.isObject()) {
                throw new IllegalStateException(where + ".answer-schema must be a JSON Schema object");
            }
            answerSchema = compile(where + ".answer-schema", answerNode);
        }
        if (GatewayProperties.blank(exampleText)) {
            throw new IllegalStateException(where + ".example: give an example of the parameters (JSON), for the docs");
        }
        JsonNode example = parse(where + ".example", exampleText, json);
        if (!(example instanceof ObjectNode exampleObject)) {
            throw new IllegalStateException(where + ".example must be a JSON object");
        }
        Set<ValidationMessage> exampleProblems = schema.validate(example);
        if (!exampleProblems.isEmpty()) {
            throw new IllegalStateException(where + ".example does not match its parameters: "
                    + describe(exampleProblems));
        }
        return new ServiceParameters(schemaObject, schema, exampleObject,
                GatewayProperties.blank(description) ? "" : description.strip(), answerSchema);
    }

    /** {@code schemaNode} as a schema to validate with, once it is a valid draft 2020-12 schema. */
    private static JsonSchema compile(String where, JsonNode schemaNode) {
        Set<ValidationMessage> schemaProblems = SCHEMAS.getSchema(SchemaLocation.of(SchemaId.V202012))
                .validate(schemaNode);
        if (!schemaProblems.isEmpty()) {
            throw new IllegalStateException(where + " is not a valid JSON Schema: " + describe(schemaProblems));
        }
        try {
            return SCHEMAS.getSchema(schemaNode);
        } catch (RuntimeException e) {
            throw new IllegalStateException(where + " is not a usable JSON Schema: " + e.getMessage());
        }
    }

    private static JsonNode parse(String where, String text, ObjectMapper json) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(where + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** The violations of {@code parameters}, in a stable order; empty when they are valid. */
    List<String> violations(JsonNode parameters) {
        return sorted(schema.validate(parameters));
    }

    /** The violations of a service's {@code answer} of its declared schema; empty when it declares none. */
    List<String> answerViolations(JsonNode answer) {
        return answerSchema == null ? List.of() : sorted(answerSchema.validate(answer));
    }

    private static List<String> sorted(Set<ValidationMessage> problems) {
        return problems.stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    static String describe(List<String> violations) {
        String named = String.join("; ", violations.subList(0, Math.min(VIOLATIONS_NAMED, violations.size())));
        return violations.size() <= VIOLATIONS_NAMED ? named
                : named + " (and " + (violations.size() - VIOLATIONS_NAMED) + " more)";
    }

    private static String describe(Set<ValidationMessage> problems) {
        return describe(sorted(problems));
    }

    ObjectNode schema() {
        return schemaNode;
    }

    ObjectNode example() {
        return example;
    }

    String description() {
        return description;
    }

    /** Whether the schema declares {@code name} as a required integer. */
    boolean requiredInteger(String name) {
        return required(name) && "integer".equals(schemaNode.path("properties").path(name).path("type").asText());
    }

    /** Whether the schema requires {@code name}. */
    boolean required(String name) {
        for (JsonNode entry : schemaNode.path("required")) {
            if (name.equals(entry.asText())) {
                return true;
            }
        }
        return false;
    }
}

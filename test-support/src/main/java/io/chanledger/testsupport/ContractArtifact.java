package io.chanledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.web3j.crypto.Hash;

/**
 * A compiled contract as {@code deploy/contracts/compile.mjs} writes it: ABI, creation and runtime
 * bytecode, and the canonical signatures of its events and custom errors.
 */
public record ContractArtifact(String contractName, JsonNode abi, String bytecode, String deployedBytecode,
                               String compilerVersion) {

    public static ContractArtifact load(String contractName) {
        try {
            JsonNode json = new ObjectMapper().readTree(DeployDir.artifact(contractName).toFile());
            return new ContractArtifact(json.get("contractName").asText(), json.get("abi"),
                    json.get("bytecode").asText(), json.get("deployedBytecode").asText(),
                    json.get("compiler").get("version").asText());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the artifact of " + contractName
                    + "; run `node deploy/contracts/compile.mjs`", e);
        }
    }

    /** Canonical signatures of the ABI's events, e.g. {@code ChannelClaimed(bytes32,address,uint256)}. */
    public List<String> eventSignatures() {
        return signatures("event");
    }

    public List<String> errorSignatures() {
        return signatures("error");
    }

    /** Custom-error selector (0x + 8 hex) to error name. */
    public Map<String, String> errorsBySelector() {
        Map<String, String> errors = new LinkedHashMap<>();
        for (String signature : errorSignatures()) {
            errors.put(Hash.sha3String(signature).substring(0, 10), signature.substring(0, signature.indexOf('(')));
        }
        return errors;
    }

    private List<String> signatures(String type) {
        List<String> result = new ArrayList<>();
        for (JsonNode entry : abi) {
            if (type.equals(entry.path("type").asText())) {
                List<String> inputTypes = new ArrayList<>();
                entry.path("inputs").forEach(input -> inputTypes.add(input.get("type").asText()));
                result.add(entry.get("name").asText() + "(" + String.join(",", inputTypes) + ")");
            }
        }
        return result;
    }
}

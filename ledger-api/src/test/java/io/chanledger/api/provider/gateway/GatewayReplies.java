package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.Http;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reading the gateway's answers: their headers and their server-sent event streams. */
final class GatewayReplies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private GatewayReplies() {
    }

    static String header(Http.Reply reply, String name) {
        return reply.raw().headers().firstValue(name).orElse(null);
    }

    /** A server-sent event stream as the gateway writes it. */
    record Sse(List<JsonNode> chunks, boolean done, List<String> lines) {

        static Sse parse(String body) throws Exception {
            List<JsonNode> chunks = new ArrayList<>();
            boolean done = false;
            List<String> lines = Arrays.asList(body.split("\n"));
            for (String line : lines) {
                if (line.startsWith("data: [DONE]")) {
                    done = true;
                } else if (line.startsWith("data: ")) {
                    chunks.add(JSON.readTree(line.substring(6)));
                }
            }
            return new Sse(chunks, done, lines);
        }

        String text() {
            StringBuilder text = new StringBuilder();
            chunks.forEach(c -> text.append(c.path("choices").path(0).path("delta").path("content").asText("")));
            return text.toString();
        }

        String comment(String name) {
            return lines.stream().filter(l -> l.startsWith(": " + name + ": ")).map(l -> l.substring(name.length() + 4))
                    .findFirst().orElse(null);
        }

        boolean doneBeforeComments() {
            int done = lines.indexOf("data: [DONE]");
            int firstComment = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(": X-CHAN-")) {
                    firstComment = i;
                    break;
                }
            }
            return done >= 0 && firstComment > done;
        }
    }
}

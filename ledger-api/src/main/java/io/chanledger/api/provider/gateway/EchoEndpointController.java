package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.http.HotPathJson;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The echo backend served unpaid as an OpenAI-compatible API ({@code POST /echo/v1/chat/completions}),
 * when {@code chan.gateway.echo-endpoint} is on: an upstream for local runs, and the baseline the
 * gateway benchmark compares paid requests with. Off by default: it serves without payment.
 */
@RestController
@ConditionalOnProperty(prefix = "chan.gateway", name = "echo-endpoint", havingValue = "true")
class EchoEndpointController {

    private final EchoUpstream echo;
    private final ObjectMapper json;

    EchoEndpointController(GatewayProperties properties, ObjectMapper json, Clock clock) {
        this.echo = new EchoUpstream(json, clock, Duration.ZERO,
                Long.parseLong(EchoUpstream.DEFAULT_ANSWER_TOKENS));
        this.json = json;
    }

    /** The body is read as the paid endpoint reads it, so that the two differ by payment alone. */
    @PostMapping("/echo/v1/chat/completions")
    @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(type = "string", format = "byte")))
    ResponseEntity<Object> complete(@Parameter(hidden = true) HttpServletRequest request,
                                    @Parameter(hidden = true) HttpServletResponse response) throws IOException {
        ChatRequest chat = ChatRequest.parse(HotPathJson.bodyBytes(request), json);
        if (!chat.stream()) {
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(echo.complete(chat).body());
        }
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        OutputStream out = response.getOutputStream();
        try (Upstream.Stream stream = echo.stream(chat)) {
            for (Upstream.Chunk chunk = stream.next(); chunk != null; chunk = stream.next()) {
                if (!chunk.usageOnly() || chat.clientWantsUsage()) {
                    out.write(("data: " + chunk.data() + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        }
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        return null;
    }
}

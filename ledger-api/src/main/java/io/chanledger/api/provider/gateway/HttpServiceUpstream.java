package io.chanledger.api.provider.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chanledger.api.http.LimitedBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A non-chat service behind plain HTTP: a request's validated parameters become one HTTP call
 * (placeholders in the URL, then the query string or a JSON body), and the answer becomes the
 * assistant message's content: the upstream's JSON as compact JSON text, so that the content always
 * parses as JSON. An answer that is not a result fails like a failure status, as a chat
 * upstream's 200 without an answer does: an empty body, one that is not JSON (an HTML error page
 * behind a 200, a malformed body), JSON {@code null}, an empty object, an object with a top-level
 * {@code error} member (other than {@code null} or {@code false}), and an answer that does not
 * match the answer schema its model declares. The whole call, answer included, must end within
 * the timeout (past it the exchange is cancelled) and the answer stay within its size limit;
 * otherwise it fails too, and a failed request costs nothing. The API key goes in its header and
 * nowhere else: failures say what happened, never what was sent or answered.
 */
final class HttpServiceUpstream {

    enum ParameterPlacement { JSON_BODY, QUERY, PATH }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_.-]+)}");
    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    private final String name;
    private final String method;
    private final String url;
    private final List<String> placeholders;
    private final ParameterPlacement placement;
    private final Map<String, String> headers;
    private final String apiKeyHeader;
    private final String apiKeyValue;
    private final Duration timeout;
    private final long maxAnswerBytes;
    private final List<String> failureStatuses;
    private final HttpClient http;
    private final ObjectMapper json;

    private HttpServiceUpstream(String name, String method, String url, ParameterPlacement placement,
                                Map<String, String> headers, String apiKeyHeader, String apiKeyValue,
                                Duration connectTimeout, Duration timeout, long maxAnswerBytes,
                                List<String> failureStatuses, ObjectMapper json) {
        this.name = name;
        this.method = method;
        this.url = url;
        this.placement = placement;
        this.headers = headers;
        this.apiKeyHeader = apiKeyHeader;
        this.apiKeyValue = apiKeyValue;
        this.timeout = timeout;
        this.maxAnswerBytes = maxAnswerBytes;
        this.failureStatuses = failureStatuses;
        this.json = json;
        List<String> names = new ArrayList<>();
        Matcher matcher = PLACEHOLDER.matcher(url);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        this.placeholders = List.copyOf(names);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    static HttpServiceUpstream of(GatewayProperties.NamedUpstream settings, ObjectMapper json) {
        String where = "chan.gateway.upstreams[" + settings.name() + "]";
        String method = GatewayProperties.blank(settings.method()) ? "POST"
                : settings.method().strip().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new IllegalStateException(where + ".method must be one of " + METHODS + ", not " + settings.method());
        }
        if (GatewayProperties.blank(settings.url())) {
            throw new IllegalStateException(where + ".url is needed for an http upstream");
        }
        URI sample = URI.create(PLACEHOLDER.matcher(settings.url().strip()).replaceAll("x"));
        if (!("http".equals(sample.getScheme()) || "https".equals(sample.getScheme())) || sample.getHost() == null) {
            throw new IllegalStateException(where + ".url must be an absolute http or https URL");
        }
        ParameterPlacement placement = placement(where, settings.params(), method);
        String apiKey = apiKey(where, settings);
        String keyHeader = settings.apiKeyHeader();
        String keyValue = apiKey == null ? null
                : "authorization".equalsIgnoreCase(keyHeader) ? "Bearer " + apiKey : apiKey;
        for (String status : settings.failureStatuses()) {
            if (!status.strip().matches("[1-5](xx|\\d\\d)")) {
                throw new IllegalStateException(where + ".failure-statuses: " + status
                        + " is neither a status (404) nor a class (5xx)");
            }
        }
        if (settings.maxAnswerBytes().toBytes() < 1 || settings.timeout().isNegative() || settings.timeout().isZero()) {
            throw new IllegalStateException(where + ": max-answer-bytes and timeout must be above 0");
        }
        HttpServiceUpstream upstream = new HttpServiceUpstream(settings.name(), method, settings.url().strip(),
                placement, settings.headers(), keyHeader, keyValue, settings.connectTimeout(), settings.timeout(),
                settings.maxAnswerBytes().toBytes(),
                settings.failureStatuses().stream().map(s -> s.strip().toLowerCase(Locale.ROOT)).toList(), json);
        try {
            // headers the HTTP client refuses (Host, Content-Length, …) fail here rather than per request
            upstream.request(sample, new byte[0]);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + ".headers: " + e.getMessage());
        }
        return upstream;
    }

    private static ParameterPlacement placement(String where, String params, String method) {
        if (GatewayProperties.blank(params)) {
            return Set.of("POST", "PUT", "PATCH").contains(method) ? ParameterPlacement.JSON_BODY
                    : ParameterPlacement.QUERY;
        }
        return switch (params.strip().toLowerCase(Locale.ROOT)) {
            case "json-body" -> ParameterPlacement.JSON_BODY;
            case "query" -> ParameterPlacement.QUERY;
            case "path" -> ParameterPlacement.PATH;
            default -> throw new IllegalStateException(where + ".params must be json-body, query or path, not " + params);
        };
    }

    private static String apiKey(String where, GatewayProperties.NamedUpstream settings) {
        if (!GatewayProperties.blank(settings.apiKey())) {
            return settings.apiKey().strip();
        }
        if (GatewayProperties.blank(settings.apiKeyFile())) {
            return null;
        }
        try {
            String key = Files.readString(Path.of(settings.apiKeyFile())).strip();
            if (key.isEmpty()) {
                throw new IllegalStateException(where + ".api-key-file is empty");
            }
            return key;
        } catch (IOException e) {
            throw new IllegalStateException(where + ".api-key-file could not be read: " + e.getClass().getSimpleName());
        }
    }

    String name() {
        return name;
    }

    /** The longest a call may take, answer included. */
    Duration timeout() {
        return timeout;
    }

    /** The URL's placeholders: parameters every request of this upstream must carry. */
    List<String> placeholders() {
        return placeholders;
    }

    /**
     * Calls the service for a request of the model {@code declaration} describes; answers the
     * assistant message's content, or throws {@link Upstream.UpstreamException}.
     */
    String call(ObjectNode parameters, ServiceParameters declaration) {
        ObjectNode rest = parameters.deepCopy();
        StringBuilder target = new StringBuilder();
        Matcher matcher = PLACEHOLDER.matcher(url);
        while (matcher.find()) {
            JsonNode value = rest.remove(matcher.group(1));
            matcher.appendReplacement(target, Matcher.quoteReplacement(pathSegment(value)));
        }
        matcher.appendTail(target);
        byte[] body = new byte[0];
        if (placement == ParameterPlacement.QUERY && !rest.isEmpty()) {
            target.append(url.contains("?") ? '&' : '?').append(query(rest));
        } else if (placement == ParameterPlacement.JSON_BODY) {
            try {
                body = json.writeValueAsBytes(rest);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
        URI uri;
        try {
            uri = URI.create(target.toString());
        } catch (IllegalArgumentException e) {
            throw new Upstream.UpstreamException("the parameters do not make a valid URL for the service", null);
        }
        return answer(send(request(uri, body)), declaration);
    }

    private HttpRequest request(URI uri, byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json");
        headers.forEach(builder::setHeader);
        if (apiKeyValue != null) {
            builder.setHeader(apiKeyHeader, apiKeyValue);
        }
        if (placement == ParameterPlacement.JSON_BODY) {
            builder.setHeader("Content-Type", "application/json");
            builder.method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        } else {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return builder.build();
    }

    private HttpResponse<byte[]> send(HttpRequest request) {
        CompletableFuture<HttpResponse<byte[]>> call = http.sendAsync(request, info -> failure(info.statusCode())
                ? HttpResponse.BodySubscribers.replacing(null) : LimitedBody.subscriber(maxAnswerBytes));
        try {
            // the request's own timeout covers the wait for the status line; this one, the whole answer
            return call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            throw Upstream.UpstreamException.timeout("the service did not answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new Upstream.UpstreamException("interrupted while calling the service", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LimitedBody.TooLarge) {
                throw new Upstream.UpstreamException("the service's answer is larger than " + maxAnswerBytes + " bytes",
                        null);
            }
            if (cause instanceof java.net.http.HttpTimeoutException) {
                throw Upstream.UpstreamException.timeout("the service did not answer within " + timeout.toMillis()
                        + " ms");
            }
            throw new Upstream.UpstreamException("the service could not be reached: "
                    + (cause == null ? "unknown" : cause.getClass().getSimpleName()), null);
        }
    }

    private String answer(HttpResponse<byte[]> response, ServiceParameters declaration) {
        if (failure(response.statusCode())) {
            throw new Upstream.UpstreamException("the service answered HTTP " + response.statusCode(), null);
        }
        byte[] bytes = response.body() == null ? new byte[0] : response.body();
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Upstream.UpstreamException("the service's answer is not UTF-8 text", null);
        }
        if (text.isBlank()) {
            throw new Upstream.UpstreamException("the service's answer is empty", null);
        }
        JsonNode parsed;
        try {
            parsed = json.readTree(text);
        } catch (JsonProcessingException notJson) {
            parsed = null;
        }
        if (parsed == null || parsed.isMissingNode()) {
            // an HTML error page, a truncated or malformed body: not a result the agent can use
            throw new Upstream.UpstreamException("the service's answer is not JSON", null);
        }
        String noResult = noResult(parsed);
        if (noResult != null) {
            throw new Upstream.UpstreamException(noResult, null);
        }
        List<String> violations = declaration.answerViolations(parsed);
        if (!violations.isEmpty()) {
            throw new Upstream.UpstreamException("the service's answer does not match the model's answer schema: "
                    + ServiceParameters.describe(violations), null);
        }
        try {
            return json.writeValueAsString(parsed);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Why a JSON answer is no result although it came as one (what a service sends with a 200
     * when it has nothing, or only an error, to give); null when it is a result.
     */
    private static String noResult(JsonNode answer) {
        if (answer.isNull()) {
            return "the service answered null, not a result";
        }
        if (answer.isObject() && answer.isEmpty()) {
            return "the service answered an empty object, not a result";
        }
        JsonNode error = answer.get("error");
        if (error != null && !error.isNull() && !(error.isBoolean() && !error.booleanValue())) {
            return "the service answered an error object, not a result";
        }
        return null;
    }

    private boolean failure(int status) {
        if (failureStatuses.isEmpty()) {
            return status / 100 != 2;
        }
        String code = Integer.toString(status);
        String family = code.charAt(0) + "xx";
        return failureStatuses.contains(code) || failureStatuses.contains(family);
    }

    private static String pathSegment(JsonNode value) {
        String text = value == null || value.isNull() ? "" : value.isValueNode() ? value.asText() : value.toString();
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Scalars as {@code name=value}, arrays as the name repeated, objects as their JSON text. */
    private static String query(ObjectNode parameters) {
        List<String> pairs = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = parameters.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8);
            List<JsonNode> values = new ArrayList<>();
            if (field.getValue().isArray()) {
                field.getValue().forEach(values::add);
            } else {
                values.add(field.getValue());
            }
            for (JsonNode value : values) {
                if (!value.isNull()) {
                    String text = value.isValueNode() ? value.asText() : value.toString();
                    pairs.add(key + "=" + URLEncoder.encode(text, StandardCharsets.UTF_8));
                }
            }
        }
        return String.join("&", pairs);
    }

    @Override
    public String toString() {
        return "HttpServiceUpstream[" + name + ": " + method + " " + url + "]";
    }
}

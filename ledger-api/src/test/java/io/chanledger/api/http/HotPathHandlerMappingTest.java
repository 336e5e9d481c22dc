package io.chanledger.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.StaticWebApplicationContext;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * The hot path mapping against Spring's own, over the same controllers: every request gets the
 * same handler, the same path variables and pattern, or the same refusal; a hot one is matched
 * without trying the other mappings.
 */
class HotPathHandlerMappingTest {

    @RestController
    @RequestMapping(path = "/things/{thingId}", produces = MediaType.APPLICATION_JSON_VALUE)
    static class Things {

        @HotPathMapping
        @PostMapping(path = "/marks", consumes = MediaType.APPLICATION_JSON_VALUE)
        void mark(@PathVariable String thingId) {
        }

        @GetMapping("/marks")
        void marks(@PathVariable String thingId) {
        }

        @GetMapping
        void thing(@PathVariable String thingId) {
        }
    }

    @RestController
    static class Others {

        @PostMapping("/others")
        void other() {
        }

        @DeleteMapping("/others/{otherId}")
        void remove(@PathVariable String otherId) {
        }
    }

    @RestController
    static class AlsoMarks {

        @PostMapping("/things/{thingId}/{what}")
        void anything(@PathVariable String thingId, @PathVariable String what) {
        }
    }

    @RestController
    static class HexMarks {

        @PostMapping("/things/{thingId:0x[0-9a-f]+}/marks")
        void hexMark(@PathVariable String thingId) {
        }
    }

    /** A hot path mapping, and how many mappings its lookups have tried. */
    private record Counted(HotPathHandlerMapping mapping, AtomicInteger tried) {
    }

    private static RequestMappingHandlerMapping springs(Class<?>... controllers) {
        return initialized(new RequestMappingHandlerMapping(), controllers);
    }

    private static Counted hot(Class<?>... controllers) {
        AtomicInteger tried = new AtomicInteger();
        HotPathHandlerMapping mapping = new HotPathHandlerMapping() {
            @Override
            protected RequestMappingInfo getMatchingMapping(RequestMappingInfo info, HttpServletRequest request) {
                tried.incrementAndGet();
                return super.getMatchingMapping(info, request);
            }
        };
        return new Counted(initialized(mapping, controllers), tried);
    }

    private static <M extends RequestMappingHandlerMapping> M initialized(M mapping, Class<?>... controllers) {
        StaticWebApplicationContext context = new StaticWebApplicationContext();
        context.setServletContext(new MockServletContext());
        for (Class<?> controller : controllers) {
            context.registerSingleton(controller.getSimpleName(), controller);
        }
        context.refresh();
        mapping.setApplicationContext(context);
        mapping.afterPropertiesSet();
        return mapping;
    }

    private static MockHttpServletRequest request(String method, String path, String contentType, String accept) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        if (contentType != null) {
            request.setContentType(contentType);
        }
        if (accept != null) {
            request.addHeader("Accept", accept);
        }
        // as the DispatcherServlet does before it asks its mappings
        ServletRequestPathUtils.parseAndCache(request);
        return request;
    }

    /** What a lookup gave: the handler method's name and what it left on the request, or the refusal's type. */
    private static List<Object> outcome(RequestMappingHandlerMapping mapping, MockHttpServletRequest request) {
        List<Object> outcome = new ArrayList<>();
        try {
            HandlerExecutionChain chain = mapping.getHandler(request);
            if (chain == null) {
                outcome.add("no handler");
                return outcome;
            }
            outcome.add(((HandlerMethod) chain.getHandler()).getMethod().getName());
            outcome.add(request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE));
            outcome.add(String.valueOf(request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)));
            outcome.add(String.valueOf(request.getAttribute(HandlerMapping.PRODUCIBLE_MEDIA_TYPES_ATTRIBUTE)));
            outcome.add(((HandlerMethod) request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE))
                    .getMethod().getName());
        } catch (Exception refused) {
            outcome.add(refused.getClass().getSimpleName());
        }
        return outcome;
    }

    @Test
    void everyRequestGetsWhatSpringsOwnLookupGives() {
        RequestMappingHandlerMapping springs = springs(Things.class, Others.class);
        HotPathHandlerMapping hot = hot(Things.class, Others.class).mapping();
        String json = MediaType.APPLICATION_JSON_VALUE;
        // method, path, body type, answer type
        List<String[]> requests = List.of(
                new String[] {"POST", "/things/a1/marks", json, json},
                new String[] {"POST", "/things/a1/marks", json, null},
                new String[] {"POST", "/things/a1/marks", "text/plain", json},
                new String[] {"POST", "/things/a1/marks", json, "text/plain"},
                new String[] {"GET", "/things/a1/marks", null, json},
                new String[] {"PUT", "/things/a1/marks", json, json},
                new String[] {"OPTIONS", "/things/a1/marks", null, null},
                new String[] {"GET", "/things/a1", null, null},
                new String[] {"POST", "/things/a1/b2/marks", json, json},
                new String[] {"POST", "/others", json, json},
                new String[] {"DELETE", "/others/o1", null, null});

        for (String[] r : requests) {
            // each lookup with a request of its own: a lookup leaves its findings on the request
            assertThat(outcome(hot, request(r[0], r[1], r[2], r[3]))).as(r[0] + " " + r[1])
                    .isEqualTo(outcome(springs, request(r[0], r[1], r[2], r[3])));
        }
        assertThat(outcome(hot, request("POST", "/things/a1/marks", json, json)))
                .containsSequence("mark", Map.of("thingId", "a1"), "/things/{thingId}/marks");
        assertThat(outcome(hot, request("POST", "/things/a1/marks", "text/plain", json)))
                .containsExactly("HttpMediaTypeNotSupportedException");
        assertThat(outcome(hot, request("PUT", "/things/a1/marks", json, json)))
                .containsExactly("HttpRequestMethodNotSupportedException");
    }

    @Test
    void aHotRequestIsMatchedWithoutTryingTheOtherMappings() {
        Counted hot = hot(Things.class, Others.class);
        String json = MediaType.APPLICATION_JSON_VALUE;

        outcome(hot.mapping(), request("POST", "/things/a1/marks", json, json));

        assertThat(hot.tried()).hasValue(0);
        assertThat(hot.mapping().hotHandlers()).extracting(handler -> handler.getMethod().getName())
                .containsExactly("mark");
    }

    @Test
    void aRequestTheHotMappingRefusesIsLookedUpAsSpringLooksItUp() {
        Counted hot = hot(Things.class, Others.class);

        outcome(hot.mapping(), request("GET", "/things/a1/marks", null, null));

        assertThat(hot.tried()).as("Spring's lookup tries every mapping for a path with a variable")
                .hasValue(hot.mapping().getHandlerMethods().size()).hasValue(5);
    }

    @Test
    void anotherMappingOfAHotPathStopsTheServiceFromStarting() {
        assertThatThrownBy(() -> hot(Things.class, AlsoMarks.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/things/{thingId}/marks")
                .hasMessageContaining("anything");
    }

    @Test
    void anotherMappingWhoseVariableHasARegularExpressionIsCaughtToo() {
        // its pattern matches no path of the hot one's filled in as the check fills it; the hot one matches its own
        assertThatThrownBy(() -> hot(Things.class, HexMarks.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hexMark");
    }

}

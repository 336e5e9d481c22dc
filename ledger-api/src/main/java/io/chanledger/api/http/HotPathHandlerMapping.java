package io.chanledger.api.http;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.server.PathContainer;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.condition.PathPatternsRequestCondition;
import org.springframework.web.servlet.mvc.condition.RequestMethodsRequestCondition;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Spring MVC's mapping of requests to controller methods, trying the {@link HotPathMapping} ones
 * first. A request for such a path is matched against that one mapping instead of every mapping of
 * the service; any other request, and one the hot mapping's conditions refuse (another method, body
 * type or answer type, so that the 405, 415 and 406 answers stay Spring's), is looked up as Spring
 * looks it up.
 *
 * <p>This gives the same handler as Spring's own lookup only while no other mapping matches a hot
 * mapping's paths for one of its methods: when several match, Spring picks the most specific. That
 * is checked when the mappings are registered, both ways: no other pattern of such a method may match
 * a path of the hot pattern, nor the hot pattern a path of the other (each with its variables filled
 * in, so that a variable with a regular expression or in part of a segment is caught one way or the
 * other); the service does not start if one does.
 */
public class HotPathHandlerMapping extends RequestMappingHandlerMapping {

    /** What fills a hot pattern's variables in the path the other mappings are checked against. */
    static final String SAMPLE_SEGMENT = "hot-path-sample";

    private record Hot(PathPattern pattern, RequestMappingInfo mapping, HandlerMethod handler) {
    }

    private List<Hot> hot = List.of();

    @Override
    public void afterPropertiesSet() {
        super.afterPropertiesSet();
        Map<RequestMappingInfo, HandlerMethod> all = getHandlerMethods();
        List<Hot> found = new ArrayList<>();
        all.forEach((mapping, handler) -> {
            if (!handler.hasMethodAnnotation(HotPathMapping.class)) {
                return;
            }
            PathPatternsRequestCondition paths = mapping.getPathPatternsCondition();
            if (paths == null || paths.getPatterns().size() != 1) {
                throw new IllegalStateException("a hot path mapping has one path pattern: " + handler);
            }
            PathPattern pattern = paths.getFirstPattern();
            all.forEach((other, otherHandler) -> {
                if (other != mapping && methodsOverlap(mapping, other) && pathsOverlap(pattern, other)) {
                    throw new IllegalStateException("hot path " + pattern.getPatternString() + " of " + handler
                            + " is also matched by " + otherHandler + ": look it up as Spring does, not first");
                }
            });
            found.add(new Hot(pattern, mapping, handler));
        });
        hot = List.copyOf(found);
    }

    /** The handler methods looked up first. */
    public List<HandlerMethod> hotHandlers() {
        return hot.stream().map(Hot::handler).toList();
    }

    @Override
    protected HandlerMethod lookupHandlerMethod(String lookupPath, HttpServletRequest request) throws Exception {
        if (!hot.isEmpty() && !CorsUtils.isPreFlightRequest(request)) {
            PathContainer path = ServletRequestPathUtils.getParsedRequestPath(request).pathWithinApplication();
            for (Hot candidate : hot) {
                if (candidate.pattern().matches(path)) {
                    RequestMappingInfo match = candidate.mapping().getMatchingCondition(request);
                    if (match == null) {
                        break;
                    }
                    // what Spring's lookup does with its best match
                    request.setAttribute(BEST_MATCHING_HANDLER_ATTRIBUTE, candidate.handler());
                    handleMatch(match, lookupPath, request);
                    return candidate.handler();
                }
            }
        }
        return super.lookupHandlerMethod(lookupPath, request);
    }

    /** Whether one of the other mapping's patterns matches a path of the hot one's, or the hot one a path of it. */
    private static boolean pathsOverlap(PathPattern hotPattern, RequestMappingInfo other) {
        PathPatternsRequestCondition paths = other.getPathPatternsCondition();
        return paths != null && paths.getPatterns().stream().anyMatch(pattern ->
                pattern.matches(samplePath(hotPattern)) || hotPattern.matches(samplePath(pattern)));
    }

    /** A path of the pattern: its variables filled in with {@link #SAMPLE_SEGMENT}. */
    private static PathContainer samplePath(PathPattern pattern) {
        return PathContainer.parsePath(pattern.getPatternString().replaceAll("\\{[^/]*}", SAMPLE_SEGMENT));
    }

    /** Whether a request of some one method could be taken by both (no methods named: any method). */
    private static boolean methodsOverlap(RequestMappingInfo one, RequestMappingInfo other) {
        RequestMethodsRequestCondition a = one.getMethodsCondition();
        RequestMethodsRequestCondition b = other.getMethodsCondition();
        if (a.isEmpty() || b.isEmpty()) {
            return true;
        }
        Set<?> methods = a.getMethods();
        return b.getMethods().stream().anyMatch(methods::contains);
    }
}

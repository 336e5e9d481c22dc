package io.chanledger.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/** What a role's application context holds: its beans by the role of their package, its routes. */
final class RoleContexts {

    private RoleContexts() {
    }

    /** Bean name → the role of the bean's class's package, for every bean of the service's own code. */
    static TreeMap<String, Optional<Role>> serviceBeans(ConfigurableApplicationContext context) {
        TreeMap<String, Optional<Role>> beans = new TreeMap<>();
        for (String name : context.getBeanDefinitionNames()) {
            Class<?> type = context.getType(name, false);
            if (type == null) {
                continue;
            }
            Class<?> user = ClassUtils.getUserClass(type);
            if (user.getName().startsWith("io.chanledger.api.")) {
                beans.put(name + " (" + user.getName() + ")", RoleComponentFilter.roleOf(user.getPackageName()));
            }
        }
        return beans;
    }

    static boolean hasBeanOfPackage(ConfigurableApplicationContext context, String packageName) {
        for (String name : context.getBeanDefinitionNames()) {
            Class<?> type = context.getType(name, false);
            if (type != null && ClassUtils.getUserClass(type).getPackageName().equals(packageName)) {
                return true;
            }
        }
        return false;
    }

    /** Every route pattern of the service's controllers. */
    static Set<String> routes(ConfigurableApplicationContext context) {
        Set<String> routes = new TreeSet<>();
        context.getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class).getHandlerMethods()
                .keySet().forEach(info -> routes.addAll(info.getPatternValues()));
        return routes;
    }

    /** The {@code Accept} of Chromium opening an address. */
    static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
            + "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

    static Http.Reply getAccepting(String url, String accept) {
        return Http.send(HttpRequest.newBuilder(URI.create(url)).header("Accept", accept).GET());
    }

    /** The {@code /api} 404: problem+json with code {@code not_found}. */
    static void assertProblemNotFound(Http.Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(404);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("code").asText()).isEqualTo("not_found");
    }

    /** The gateway's 404: {@code {"error":{...}}} and {@code X-CHAN-Error}. */
    static void assertGatewayNotFound(Http.Reply reply) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(404);
        assertThat(reply.contentType()).startsWith("application/json");
        assertThat(reply.json().path("error").path("code").asText()).isEqualTo("not_found");
        assertThat(reply.json().path("error").path("type").asText()).isEqualTo("not_found_error");
        assertThat(reply.raw().headers().firstValue("X-CHAN-Error")).contains("not_found");
    }
}

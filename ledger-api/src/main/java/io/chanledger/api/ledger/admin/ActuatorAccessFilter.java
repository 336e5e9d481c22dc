package io.chanledger.api.ledger.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.http.ApiProblem;
import io.chanledger.api.http.ErrorBodies;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The actuator's endpoints other than health take the admin token: metrics carry what the API
 * shows only to a channel's parties and the admin (a provider's revenue in
 * {@code chan.gateway.charged}, its paid request counts), and the endpoint list names them.
 * Health stays open for probes; it shows each component's status and nothing else. With
 * {@code management.server.port} set to a port of its own, the actuator is served there instead,
 * by a web server this filter is not registered with: that port is for the monitoring network only.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class ActuatorAccessFilter extends OncePerRequestFilter {

    private final AdminGuard admin;
    private final ObjectMapper mapper;
    private final String basePath;

    ActuatorAccessFilter(AdminGuard admin, ObjectMapper mapper,
                         @Value("${management.endpoints.web.base-path:/actuator}") String basePath) {
        this.admin = admin;
        this.mapper = mapper;
        this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // the servlet path is decoded and normalised (no path parameters, no "//"), as the handler mapping sees it
        String path = request.getServletPath();
        boolean actuator = path.equals(basePath) || path.startsWith(basePath + "/");
        boolean health = path.equals(basePath + "/health") || path.startsWith(basePath + "/health/");
        return basePath.isEmpty() || !actuator || health;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            admin.require(request);
        } catch (ApiProblem refused) {
            ErrorBodies.write(request, response, mapper, refused.status(), refused.code(), refused.getMessage());
            return;
        }
        chain.doFilter(request, response);
    }
}

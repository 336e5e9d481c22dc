package io.chanledger.api.ledger.admin;

import io.chanledger.api.http.ApiProblem;
import io.chanledger.api.http.StrictRequestHead;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Admits admin requests that carry {@code Authorization: Bearer <chan.admin.token>}. The
 * comparison takes the same time whatever the input, and admin operations are refused outright
 * when no token is configured, so that an unset variable never opens them.
 */
@Component
public class AdminGuard {

    private final byte[] token;

    AdminGuard(AdminProperties properties) {
        String configured = properties.token();
        this.token = configured == null || configured.isBlank() ? null : configured.getBytes(StandardCharsets.UTF_8);
    }

    public boolean enabled() {
        return token != null;
    }

    /**
     * Whether the request carries an {@code Authorization} header at all: a caller who sends one
     * means to be the admin, and is judged by {@link #require} rather than served as anonymous.
     */
    public boolean presented(HttpServletRequest request) {
        return request.getHeader(HttpHeaders.AUTHORIZATION) != null;
    }

    /** Throws 403 {@code admin_disabled} or 401 {@code admin_unauthorized} unless the request is the admin's. */
    public void require(HttpServletRequest request) {
        if (token == null) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "admin_disabled",
                    "admin operations are off: no admin token is configured");
        }
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        // exactly as sent: the container drops white space after a value, which would let "Bearer <token> " pass
        byte[] presented = header != null && header.startsWith("Bearer ")
                && !StrictRequestHead.hasTrailingWhitespace(request, HttpHeaders.AUTHORIZATION)
                ? header.substring(7).getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(presented, token)) {
            throw new ApiProblem(HttpStatus.UNAUTHORIZED, "admin_unauthorized", "a valid admin token is required");
        }
    }
}

package io.chanledger.api.http;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Who a request comes from, as rate limits see it: the last entry of a header set by a trusted
 * reverse proxy (the one hop that proxy saw; earlier entries are whatever the client wrote), else
 * the connection's peer address. Only a deployment behind such a proxy names the header.
 */
public final class ClientAddress {

    private ClientAddress() {
    }

    /** {@code trustedHeader} null or blank: the peer address. */
    public static String of(HttpServletRequest request, String trustedHeader) {
        if (trustedHeader != null && !trustedHeader.isBlank()) {
            String forwarded = request.getHeader(trustedHeader.strip());
            if (forwarded != null && !forwarded.isBlank()) {
                String[] hops = forwarded.split(",");
                String last = hops[hops.length - 1].strip();
                if (!last.isEmpty()) {
                    return last;
                }
            }
        }
        return request.getRemoteAddr();
    }
}

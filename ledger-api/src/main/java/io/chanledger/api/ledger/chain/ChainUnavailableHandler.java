package io.chanledger.api.ledger.chain;

import io.chanledger.api.http.ErrorBodies;
import io.chanledger.chain.rpc.RpcException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A request that needed the chain node (a lookup of a channel the listener has not seen yet)
 * while the node could not answer: 503, so the client retries, instead of a refusal it would
 * take as final.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
class ChainUnavailableHandler {

    private static final Logger log = LoggerFactory.getLogger(ChainUnavailableHandler.class);

    @ExceptionHandler(RpcException.class)
    ResponseEntity<Object> chainUnavailable(RpcException e, HttpServletRequest request) {
        log.warn("the chain node failed during {} {}: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
        return ErrorBodies.render(request, HttpStatus.SERVICE_UNAVAILABLE, "chain_unavailable",
                "the chain node could not be reached; nothing was recorded, retry later", Map.of());
    }
}

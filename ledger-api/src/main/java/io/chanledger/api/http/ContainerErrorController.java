package io.chanledger.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The error page the container forwards to when it refuses a request itself (408 on a body that
 * does not arrive, 400 on headers over its limit), in place of Spring Boot's default JSON. Asked
 * for directly, {@code /error} is not a resource: 404, a page for a browser ({@link BrowserNotFound}).
 */
@Hidden
@Controller
@RequestMapping("${server.error.path:${error.path:/error}}")
class ContainerErrorController implements ErrorController {

    private final ObjectMapper mapper;
    private final BrowserNotFound browserNotFound;

    ContainerErrorController(ObjectMapper mapper, BrowserNotFound browserNotFound) {
        this.mapper = mapper;
        this.browserNotFound = browserNotFound;
    }

    @RequestMapping
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (request.getDispatcherType() != DispatcherType.ERROR || !(status instanceof Integer code)) {
            Optional<ResponseEntity<byte[]>> page = browserNotFound.page(request);
            if (page.isPresent()) {
                write(page.get(), response);
                return;
            }
            response.setHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT);
            ErrorBodies.write(request, response, mapper, HttpStatus.NOT_FOUND, "not_found", "no such resource");
            return;
        }
        ContainerErrors.write((String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI), response, mapper,
                code);
    }

    private static void write(ResponseEntity<byte[]> page, HttpServletResponse response) throws IOException {
        response.setStatus(page.getStatusCode().value());
        page.getHeaders().forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        if (page.getBody() != null) {
            response.getOutputStream().write(page.getBody());
        }
    }
}

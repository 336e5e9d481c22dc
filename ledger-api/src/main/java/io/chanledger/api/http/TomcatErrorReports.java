package io.chanledger.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Puts a problem+json error report in place of Tomcat's HTML one. Tomcat answers some requests
 * before any application code sees them: a path with a bad {@code %} escape or an encoded
 * {@code /}, a request line with characters the HTTP grammar forbids ({@code []} unencoded in a
 * query), headers over {@code server.max-http-request-header-size}. Those that it cannot map to the
 * application (the bad paths) never reach the error page either, only the host's error report
 * valve, which this replaces. What the container does not let us change: the status it chose (400
 * also for headers too large), and, when it could not read the request line at all, the path, so
 * those are answered as problem+json whatever the route family.
 */
@Component
class TomcatErrorReports implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private final ObjectMapper mapper;

    TomcatErrorReports(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** After Spring Boot's own customizer, which adds an HTML report valve to the host. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            Pipeline pipeline = host.getPipeline();
            for (Valve valve : pipeline.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    pipeline.removeValve(valve);
                }
            }
            pipeline.addValve(new ProblemReportValve(mapper));
            // the host adds a valve of this class when it starts, unless it finds one already
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
        });
    }

    static final class ProblemReportValve extends ErrorReportValve {

        private final ObjectMapper mapper;

        ProblemReportValve(ObjectMapper mapper) {
            this.mapper = mapper;
        }

        /** Tomcat's conditions for reporting, then the route family's error shape instead of HTML. */
        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            AtomicBoolean ioAllowed = new AtomicBoolean(true);
            response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
            if (!ioAllowed.get()) {
                return;
            }
            try {
                ContainerErrors.write(request.getRequestURI(), response, mapper, status);
                response.finishResponse();
            } catch (IOException | IllegalStateException e) {
                // the client is gone or the response cannot take a body; there is nobody to tell
            }
        }
    }
}

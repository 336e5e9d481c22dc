package io.chanledger.api.marketplace.directory;

import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Answers precomputed bodies. A large one (the provider list, the directory) is also written once
 * to a file of this process and handed to Tomcat's sendfile, which moves it from the page cache to
 * the socket without copying it through the JVM, the way nginx serves a static file; that is most
 * of the cost of a 100 KB+ answer. Only when Tomcat offers sendfile on this request and no filter
 * wrapped the response (a wrapper would expect to see the bytes); otherwise, and for small bodies,
 * the bytes are written as usual. A file that stops being current is deleted a minute later, long
 * after any transfer that started from it.
 */
@Component
class ResponseBodies implements DisposableBean {

    private static final int FILES_KEPT = 64;
    private static final String SENDFILE_SUPPORT = "org.apache.tomcat.sendfile.support";
    private static final String SENDFILE_FILENAME = "org.apache.tomcat.sendfile.filename";
    private static final String SENDFILE_START = "org.apache.tomcat.sendfile.start";
    private static final String SENDFILE_END = "org.apache.tomcat.sendfile.end";
    private static final String TOMCAT_RESPONSE = "org.apache.catalina.connector.ResponseFacade";
    private static final Set<String> PASS_THROUGH_WRAPPERS = Set.of(
            "org.springframework.web.context.request.async.StandardServletAsyncWebRequest$LifecycleHttpServletResponse");
    private static final Logger log = LoggerFactory.getLogger(ResponseBodies.class);

    private final Path directory;
    private final Map<String, Path> files = new LinkedHashMap<>(FILES_KEPT, 0.75f, true);
    private final ScheduledExecutorService deleter = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "response-body-files");
        thread.setDaemon(true);
        return thread;
    });
    private final int sendfileMinBytes;
    private final AtomicLong sentFromFiles = new AtomicLong();
    private volatile boolean filesUsable = true;

    ResponseBodies(MarketplaceProperties properties) throws IOException {
        this.directory = Files.createTempDirectory("chan-marketplace-bodies-");
        this.sendfileMinBytes = properties.sendfileMinBytes();
    }

    ResponseEntity<byte[]> respond(HttpServletRequest request, HttpServletResponse response, Rendered rendered,
                                          String ifNoneMatch, CacheControl cacheControl) {
        if (rendered.matches(ifNoneMatch)) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(rendered.etag()).cacheControl(cacheControl).build();
        }
        Path file = sendfileAllowed(request, response, rendered) ? file(rendered) : null;
        if (file == null) {
            return rendered.respond(null, cacheControl);
        }
        sentFromFiles.incrementAndGet();
        request.setAttribute(SENDFILE_FILENAME, file.toString());
        request.setAttribute(SENDFILE_START, 0L);
        request.setAttribute(SENDFILE_END, (long) rendered.body().length);
        return ResponseEntity.ok()
                .eTag(rendered.etag())
                .cacheControl(cacheControl)
                .contentType(MediaType.APPLICATION_JSON)
                .contentLength(rendered.body().length)
                .build();
    }

    /** How many answers Tomcat sent from files so far. */
    long sentFromFiles() {
        return sentFromFiles.get();
    }

    private boolean sendfileAllowed(HttpServletRequest request, HttpServletResponse response, Rendered rendered) {
        return filesUsable && sendfileMinBytes > 0 && rendered.body().length >= sendfileMinBytes
                && "GET".equals(request.getMethod())
                && Boolean.TRUE.equals(request.getAttribute(SENDFILE_SUPPORT))
                && unwrapped(response);
    }

    /** The response is Tomcat's own, possibly inside Spring MVC's async lifecycle wrapper, which passes bytes through. */
    private static boolean unwrapped(ServletResponse response) {
        ServletResponse current = response;
        while (current instanceof HttpServletResponseWrapper wrapper) {
            if (!PASS_THROUGH_WRAPPERS.contains(wrapper.getClass().getName())) {
                return false;
            }
            current = wrapper.getResponse();
        }
        return current.getClass().getName().equals(TOMCAT_RESPONSE);
    }

    private Path file(Rendered rendered) {
        String name = rendered.etag().replace("\"", "") + ".json";
        synchronized (files) {
            Path existing = files.get(name);
            if (existing != null && Files.isRegularFile(existing)) {
                return existing;
            }
            try {
                Path target = directory.resolve(name);
                Path partial = Files.createTempFile(directory, name, ".partial");
                Files.write(partial, rendered.body());
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                files.put(name, target);
                if (files.size() > FILES_KEPT) {
                    Map.Entry<String, Path> eldest = files.entrySet().iterator().next();
                    files.remove(eldest.getKey());
                    deleter.schedule(() -> retire(eldest.getKey()), 1, TimeUnit.MINUTES);
                }
                return target;
            } catch (IOException | UncheckedIOException e) {
                log.warn("response bodies are written from memory from now on: {} is not writable ({})", directory,
                        e.toString());
                filesUsable = false;
                return null;
            }
        }
    }

    /** Deletes a file that stopped being current, unless the same body became current again since. */
    private void retire(String name) {
        synchronized (files) {
            if (!files.containsKey(name)) {
                delete(directory.resolve(name));
            }
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("could not delete {}: {}", file, e.toString());
        }
    }

    @Override
    public void destroy() {
        deleter.shutdownNow();
        synchronized (files) {
            files.values().forEach(ResponseBodies::delete);
            files.clear();
        }
        delete(directory);
    }
}

package io.chanledger.api.embeddedstore;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server a killed service leaves behind. PostgreSQL runs in a session of its own, so a SIGKILL of
 * the service's JVM leaves it running, holding the data directory and its port; the next start must
 * stop it first. It is told apart from a server a live service still uses by the lock file that
 * service holds ({@value #SERVICE_LOCK}, locked for as long as its JVM lives).
 */
final class OrphanedServer {

    /** The library's lock of the data directory, held by the JVM that started the server. */
    static final String SERVICE_LOCK = "epg-lock";

    private static final Logger log = LoggerFactory.getLogger(OrphanedServer.class);

    private OrphanedServer() {
    }

    /**
     * Stops the server that runs on {@code dataDirectory} without a live service, if there is one,
     * and refuses to go on when a live service uses it.
     */
    static void stopIfAny(Path dataDirectory, Duration timeout) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.isEmpty() || lines.getFirst().isBlank()) {
            return; // written as the server started or stopped; the server judges it itself
        }
        Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(lines.getFirst().trim()))
                .filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return; // a server killed with the service: PostgreSQL removes a pid file whose process is gone
        }
        ProcessHandle server = process.get();
        Optional<String> command = server.info().command();
        if (command.isPresent() && !command.get().endsWith("/postgres")) {
            // the number went to another process since; PostgreSQL would take it for a server still running
            log.warn("Removing {}: its process {} is now {}", pidFile, server.pid(), command.get());
            Files.delete(pidFile);
            return;
        }
        if (usedByALiveService(dataDirectory)) {
            throw new IllegalStateException("the embedded store in " + dataDirectory
                    + " is in use by another running service (PostgreSQL process " + server.pid()
                    + "): stop it, or give this one another chan.embedded-store.directory");
        }
        log.warn("Stopping the embedded PostgreSQL (process {}) a killed service left running on {}", server.pid(),
                dataDirectory);
        // SIGTERM, a smart shutdown: the killed service's sessions are gone, so it writes a checkpoint and exits
        server.destroy();
        try {
            server.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the embedded PostgreSQL (process " + server.pid() + ") on " + dataDirectory
                    + " a killed service left running did not stop within " + timeout, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the embedded PostgreSQL", e);
        }
    }

    private static boolean usedByALiveService(Path dataDirectory) throws IOException {
        Path lockFile = dataDirectory.resolve(SERVICE_LOCK);
        if (!Files.exists(lockFile)) {
            return false;
        }
        try (RandomAccessFile file = new RandomAccessFile(lockFile.toFile(), "rw");
             FileChannel channel = file.getChannel()) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (java.nio.channels.OverlappingFileLockException e) {
            return true; // this very JVM runs a service on it
        }
    }
}

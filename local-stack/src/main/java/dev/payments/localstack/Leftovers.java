package dev.payments.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes a previous launcher left behind when it was killed without its shutdown hook (kill -9, a closed
 * terminal): they would hold the ports and the data directory of this run. Their in-flight work belongs to a
 * stack that is gone, so they get a short grace period, all at once, before SIGKILL.
 */
final class Leftovers {

    private static final Logger log = LoggerFactory.getLogger(Leftovers.class);
    private static final Duration GRACE = Duration.ofSeconds(10);

    private Leftovers() {
    }

    static void stop(Path pidDirectory, Path postgresDataDirectory) {
        List<ProcessHandle> children = new ArrayList<>();
        if (Files.isDirectory(pidDirectory)) {
            try (Stream<Path> pidFiles = Files.list(pidDirectory)) {
                pidFiles.filter(file -> file.getFileName().toString().endsWith(".pid"))
                        .forEach(file -> leftoverChild(file).ifPresent(children::add));
            } catch (IOException e) {
                log.warn("could not read {}", pidDirectory, e);
            }
        }
        terminate(children);
        // After the children, so that a smart shutdown does not wait for their connections.
        leftoverPostmaster(postgresDataDirectory.resolve("postmaster.pid")).ifPresent(postmaster -> {
            List<ProcessHandle> postgres = new ArrayList<>(postmaster.descendants().toList());
            postmaster.destroy();
            waitForExit(List.of(postmaster));
            postgres.add(postmaster);
            postgres.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        });
    }

    private static Optional<ProcessHandle> leftoverChild(Path pidFile) {
        String component = pidFile.getFileName().toString().replaceFirst("\\.pid$", "");
        // A child JVM carries the marker; HAProxy is known by the configuration file this stack wrote for it.
        String marker = component.equals(LoadBalancer.NAME)
                ? pidFile.resolveSibling(LoadBalancer.NAME + ".cfg").toString()
                : "-D" + ChildSpec.COMPONENT_PROPERTY + "=" + component;
        Optional<ProcessHandle> process = readPid(pidFile).flatMap(ProcessHandle::of)
                // The pid may have been reused by an unrelated process since: only ours carry the marker.
                .filter(handle -> handle.info().commandLine().map(line -> line.contains(marker)).orElse(false));
        process.ifPresent(handle ->
                log.warn("{} from a previous run is still running (pid {}); stopping it", component, handle.pid()));
        deleteQuietly(pidFile);
        return process;
    }

    private static Optional<ProcessHandle> leftoverPostmaster(Path postmasterPid) {
        Optional<ProcessHandle> postmaster = readPid(postmasterPid).flatMap(ProcessHandle::of)
                .filter(process -> process.info().command().map(command -> command.endsWith("postgres")).orElse(false));
        postmaster.ifPresent(process ->
                log.warn("PostgreSQL from a previous run is still running (pid {}); stopping it", process.pid()));
        return postmaster;
    }

    private static void terminate(List<ProcessHandle> processes) {
        processes.forEach(ProcessHandle::destroy);
        waitForExit(processes);
        processes.stream().filter(ProcessHandle::isAlive).forEach(process -> {
            log.warn("pid {} did not exit within {} s of SIGTERM; killing it", process.pid(), GRACE.toSeconds());
            process.destroyForcibly();
        });
    }

    /** Polls: these are not this JVM's children, and onExit() for a stranger polls with long pauses. */
    private static void waitForExit(List<ProcessHandle> processes) {
        long deadline = System.nanoTime() + GRACE.toNanos();
        while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Optional<Long> readPid(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            return Optional.of(Long.parseLong(Files.readAllLines(file).get(0).trim()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("could not delete {}", file, e);
        }
    }
}

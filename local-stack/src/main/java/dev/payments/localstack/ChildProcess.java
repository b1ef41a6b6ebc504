package dev.payments.localstack;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One child JVM. A child that exits without being asked to is reported and left down: restarting it silently
 * would hide the very failures the drills look for.
 */
final class ChildProcess implements ManagedComponent {

    private static final Logger log = LoggerFactory.getLogger(ChildProcess.class);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final int TAIL_LINES = 15;
    private static final int TAIL_BYTES = 16 * 1024;

    private final ChildSpec spec;
    private final Duration healthTimeout;
    private final Duration stopTimeout;
    private final boolean classDataSharing;
    private Process process;
    private boolean exitExpected;
    private boolean retired;
    private ClassDataArchive classData;
    private volatile ComponentState state;
    private volatile Integer lastExitCode;
    private volatile Duration lastStartup;

    /**
     * @param healthTimeout how long a start may take to report healthy
     * @param stopTimeout   how long it may take to exit after SIGTERM before it is killed
     * @param classDataSharing whether a Spring Boot child starts from its class data archive ({@link ClassDataArchive})
     */
    ChildProcess(ChildSpec spec, Duration healthTimeout, Duration stopTimeout, boolean classDataSharing) {
        this.spec = spec;
        this.healthTimeout = healthTimeout;
        this.stopTimeout = stopTimeout;
        this.classDataSharing = classDataSharing && spec.component().hasManagementPort();
        this.state = Files.isRegularFile(spec.jar()) ? ComponentState.NOT_STARTED : ComponentState.MISSING;
    }

    @Override
    public Component component() {
        return spec.component();
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public String url() {
        return spec.baseUrl();
    }

    ChildSpec spec() {
        return spec;
    }

    @Override
    public ComponentState state() {
        return state;
    }

    @Override
    public Optional<Integer> lastExitCode() {
        return Optional.ofNullable(lastExitCode);
    }

    /** From spawn to the first healthy answer, of the latest start. */
    @Override
    public Optional<Duration> lastStartup() {
        return Optional.ofNullable(lastStartup);
    }

    @Override
    public synchronized OptionalLong pid() {
        return process != null && process.isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }

    /** Spawns the JVM and waits until it reports healthy; a no-op if it is already running. */
    @Override
    public void start() {
        Optional<ClassDataArchive> classData = classDataSharing && Files.isRegularFile(spec.jar())
                ? ClassDataArchive.forStart(spec) : Optional.empty();
        long spawnedAt = System.nanoTime();
        Process started = spawn(classData.orElse(null));
        if (started != null) {
            awaitHealthy(started, spawnedAt, healthTimeout);
        }
    }

    /** @param archive the class data archive it starts from (or trains), or null to start from the jar */
    private synchronized Process spawn(ClassDataArchive archive) {
        if (retired) {
            throw new ChildFailedException(spec.name() + ": the local stack is shutting down");
        }
        if (process != null && process.isAlive()) {
            return null;
        }
        if (!Files.isRegularFile(spec.jar())) {
            state = ComponentState.MISSING;
            throw new ChildFailedException(spec.name() + ": no runnable jar at " + spec.jar()
                    + " (build it with ./mvnw -DskipTests install)");
        }
        List<String> command = archive == null ? spec.command() : archive.command(spec);
        try {
            Files.createDirectories(spec.logFile().getParent());
            Files.createDirectories(spec.workingDirectory());
            Files.writeString(spec.logFile(), "%n==== %s local-stack starting %s: %s%n".formatted(
                            Instant.now(), spec.name(), spec.shown(command)),
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Process spawned = new ProcessBuilder(command)
                    .directory(spec.workingDirectory().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.logFile().toFile()))
                    .start();
            Files.createDirectories(spec.pidFile().getParent());
            Files.writeString(spec.pidFile(), Long.toString(spawned.pid()));
            process = spawned;
            classData = archive;
            exitExpected = false;
            lastExitCode = null;
            state = ComponentState.STARTING;
            spawned.onExit().thenAccept(this::exited);
            log.info("{} spawned as pid {}, logging to {}", spec.name(), spawned.pid(), spec.logFile());
            return spawned;
        } catch (IOException e) {
            state = ComponentState.EXITED;
            throw new UncheckedIOException("could not start " + spec.name(), e);
        }
    }

    private void awaitHealthy(Process started, long spawnedAt, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!started.isAlive()) {
                throw new ChildFailedException(spec.name() + " exited with code " + started.exitValue()
                        + " before it became healthy; last lines of " + spec.logFile() + ":\n" + tail());
            }
            if (spec.probe().isHealthy()) {
                Duration startup = Duration.ofNanos(System.nanoTime() - spawnedAt);
                synchronized (this) {
                    if (process == started && started.isAlive()) {
                        state = ComponentState.RUNNING;
                        lastStartup = startup;
                    }
                }
                log.info("{} is healthy after {} ms", spec.name(), startup.toMillis());
                return;
            }
            sleep(POLL);
        }
        throw new ChildFailedException(spec.name() + " did not report healthy at " + spec.probe().uri()
                + " within " + timeout.toSeconds() + " s; last lines of " + spec.logFile() + ":\n" + tail());
    }

    /** SIGTERM, then SIGKILL if it has not exited within the stop timeout. */
    @Override
    public void stop() {
        stop(exitTime());
    }

    private synchronized void stop(Duration grace) {
        if (process == null || !process.isAlive()) {
            if (state != ComponentState.MISSING) {
                state = ComponentState.STOPPED;
            }
            return;
        }
        exitExpected = true;
        process.destroy();
        if (grace.compareTo(stopTimeout) > 0) {
            log.info("{} writes its class data archive as it exits; waiting up to {} s", spec.name(), grace.toSeconds());
        }
        if (!waitFor(process, grace)) {
            log.warn("{} (pid {}) did not exit {} s after SIGTERM; killing it", spec.name(), process.pid(),
                    grace.toSeconds());
            process.destroyForcibly();
            waitFor(process, Duration.ofSeconds(10));
        }
        state = ComponentState.STOPPED;
        log.info("{} stopped (exit code {})", spec.name(), exitCodeOf(process));
        // Here, not only in the exit callback: the launcher may itself be exiting once its children are stopped.
        keepClassData(process);
    }

    /** Stops it for good: the stack is closing, and a start still in flight must not spawn it again. */
    @Override
    public synchronized void close() {
        retired = true;
        stop(exitTime());
    }

    /** SIGKILL: the process gets no chance to finish anything, like a crashed pod. */
    @Override
    public synchronized void kill() {
        if (process == null || !process.isAlive()) {
            return;
        }
        exitExpected = true;
        process.destroyForcibly();
        waitFor(process, Duration.ofSeconds(10));
        state = ComponentState.KILLED;
        log.info("{} killed (pid {})", spec.name(), process.pid());
    }

    private synchronized void exited(Process exitedProcess) {
        if (exitedProcess != process) {
            return;
        }
        keepClassData(exitedProcess);
        lastExitCode = exitedProcess.exitValue();
        if (!exitExpected) {
            state = ComponentState.EXITED;
            log.error("{} (pid {}) exited by itself with code {}; it is NOT restarted. Last lines of {}:\n{}",
                    spec.name(), exitedProcess.pid(), lastExitCode, spec.logFile(), tail());
        }
    }

    /** The stop timeout, longer for a JVM that writes its ahead-of-time cache as it exits. */
    private Duration exitTime() {
        return classData == null ? stopTimeout : classData.exitTime(stopTimeout);
    }

    private void keepClassData(Process exitedProcess) {
        if (classData != null && !exitedProcess.isAlive()) {
            classData.exited(exitedProcess.exitValue());
        }
    }

    /** The last lines of the log, read from its end: logs of a long run grow large. */
    String tail() {
        try (RandomAccessFile file = new RandomAccessFile(spec.logFile().toFile(), "r")) {
            long from = Math.max(0, file.length() - TAIL_BYTES);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static boolean waitFor(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private static String exitCodeOf(Process process) {
        return process.isAlive() ? "none yet" : Integer.toString(process.exitValue());
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChildFailedException("interrupted while waiting for a child to become healthy");
        }
    }
}

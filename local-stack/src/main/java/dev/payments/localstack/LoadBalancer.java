package dev.payments.localstack;

import dev.payments.localstack.infra.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HAProxy in front of every replicated service, as a cluster's Service or ingress would be: one frontend on the
 * service's port, round-robin over its replicas, each replica health-checked on its readiness probe and taken out of
 * rotation while it is down. A request whose connection a dead replica refuses is sent to another ({@code retry-on
 * conn-failure}, safe for a POST: nothing reached the dead one); a request in flight when a replica dies fails, as it
 * would in a cluster. HAProxy is Debian's package ({@code local-stack/install-haproxy.sh} installs it where it is
 * missing); nothing here balances by itself.
 */
final class LoadBalancer implements AutoCloseable {

    static final String NAME = "load-balancer";
    static final String INSTALL_SCRIPT = "local-stack/install-haproxy.sh";
    /** sun_path holds 108 bytes on Linux, the terminating NUL included. */
    private static final int MAX_SOCKET_PATH = 100;
    private static final Logger log = LoggerFactory.getLogger(LoadBalancer.class);
    private static final List<Path> KNOWN_LOCATIONS = List.of(Path.of("/usr/sbin/haproxy"), Path.of("/usr/local/sbin/haproxy"),
            Path.of("/usr/bin/haproxy"));

    /**
     * @param port       where clients reach the service
     * @param replicas   replica name to its own port
     * @param checkPorts replica name to its management port, where its readiness probe answers (actuator is not on
     *                   the API port)
     */
    record Frontend(Component service, int port, Map<String, Integer> replicas, Map<String, Integer> checkPorts) {

        Frontend {
            replicas = new LinkedHashMap<>(replicas);
            checkPorts = Map.copyOf(checkPorts);
        }
    }

    /** One errorfile per status HAProxy answers itself: deploy/haproxy/errors, packaged into this jar. */
    static final List<Integer> ERROR_STATUSES = List.of(400, 403, 405, 408, 413, 429, 500, 501, 502, 503, 504);
    private static final String ERROR_RESOURCES = "haproxy-errors/";

    private final List<Frontend> frontends;
    private final Path errorFiles;
    private final Path config;
    private final Path logFile;
    private final Path pidFile;
    private final Path statsSocket;
    private Process process;

    LoadBalancer(List<Frontend> frontends, Path runDirectory, Path logFile) {
        this.frontends = List.copyOf(frontends);
        this.config = runDirectory.resolve(NAME + ".cfg");
        this.errorFiles = runDirectory.resolve(NAME + "-errors");
        this.pidFile = runDirectory.resolve(NAME + ".pid");
        this.statsSocket = runDirectory.resolve(NAME + ".sock");
        this.logFile = logFile;
    }

    /** The HAProxy executable on this machine, if there is one. */
    static Optional<Path> executable() {
        String path = System.getenv().getOrDefault("PATH", "");
        List<Path> candidates = new ArrayList<>();
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isBlank()) {
                candidates.add(Path.of(dir, "haproxy"));
            }
        }
        candidates.addAll(KNOWN_LOCATIONS);
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * The configuration: pure text from the frontends, so it can be read and tested without HAProxy.
     *
     * @param statsSocket where HAProxy answers {@code show stat}: which replicas it has in rotation
     */
    static String configuration(List<Frontend> frontends, Path statsSocket, Path errorFiles) {
        StringBuilder cfg = new StringBuilder("""
                # Written by the local stack for this run (LoadBalancer.java); regenerated on every start.
                global
                    maxconn 4096
                    stats socket STATS_SOCKET level user
                    # A request head up to 96 KB reaches a replica, which refuses what exceeds its own limits with
                    # problem+json (a 70 KB URL: URI_TOO_LONG). HAProxy 2.6 answers a request it cannot parse at all
                    # with its built-in HTML 400 whatever the errorfile (haproxy/haproxy#3032, fixed in 3.2).
                    tune.bufsize 98304

                defaults
                    mode http
                    option httplog
                    timeout connect 2s
                    # Longer than the slowest call through it: a confirm (20 s deadline), reconciliation's sync (40 s).
                    timeout client 90s
                    timeout server 90s
                    timeout http-request 10s
                    # A refused connection (a dead replica not yet marked down) is tried on another replica.
                    retries 2
                    option redispatch
                    retry-on conn-failure
                    # Its own refusals (no replica up, no answer) are problem+json like the services' (docs/problems.md).
                """.replace("STATS_SOCKET", statsSocket.toAbsolutePath().toString()));
        for (int status : ERROR_STATUSES) {
            cfg.append("    errorfile ").append(status).append(' ')
                    .append(errorFiles.resolve(status + ".http").toAbsolutePath()).append('\n');
        }
        for (Frontend frontend : frontends) {
            String id = frontend.service().id();
            cfg.append("\nfrontend ").append(id).append('\n')
                    .append("    bind 127.0.0.1:").append(frontend.port()).append('\n')
                    .append("    default_backend ").append(id).append('\n')
                    .append("\nbackend ").append(id).append('\n')
                    .append("    balance roundrobin\n")
                    .append("    option httpchk GET /actuator/health/readiness\n")
                    .append("    http-check expect status 200\n")
                    // Down after two failed checks a second apart, back after one good one.
                    .append("    default-server inter 1s fall 2 rise 1\n");
            frontend.replicas().forEach((name, port) -> {
                cfg.append("    server ").append(name).append(" 127.0.0.1:").append(port).append(" check");
                Integer checkPort = frontend.checkPorts().get(name);
                if (checkPort != null) {
                    cfg.append(" port ").append(checkPort);
                }
                cfg.append('\n');
            });
        }
        return cfg.toString();
    }

    /** Writes the configuration and starts HAProxy in the foreground; returns once every frontend accepts connections. */
    synchronized void start() {
        Path haproxy = executable().orElseThrow(() -> new IllegalStateException(
                "Several replicas need HAProxy in front of them, and there is none on this machine. Install it with "
                        + INSTALL_SCRIPT + " (Debian's haproxy package), or run one replica per service."));
        try {
            Files.createDirectories(config.getParent());
            Files.createDirectories(logFile.getParent());
            Files.deleteIfExists(statsSocket);
            writeErrorFiles();
            Files.writeString(config, configuration(frontends, statsSocket, errorFiles), StandardCharsets.UTF_8);
            Files.writeString(logFile, "%n==== %s local-stack starting %s -f %s%n".formatted(Instant.now(), haproxy, config),
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            // -db: stay in the foreground, so this launcher owns the process and sees it exit.
            process = new ProcessBuilder(haproxy.toString(), "-db", "-f", config.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            Files.writeString(pidFile, Long.toString(process.pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("could not start HAProxy", e);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (frontends.stream().anyMatch(frontend -> FreePorts.isFree(frontend.port()))) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new ChildFailedException("HAProxy did not open its frontends; see " + logFile);
            }
            sleep();
        }
        log.info("HAProxy (pid {}) balances {}", process.pid(), describe());
    }

    private void writeErrorFiles() throws IOException {
        Files.createDirectories(errorFiles);
        for (int status : ERROR_STATUSES) {
            try (var in = LoadBalancer.class.getResourceAsStream(ERROR_RESOURCES + status + ".http")) {
                if (in == null) {
                    throw new IllegalStateException("the launcher jar has no " + ERROR_RESOURCES + status + ".http");
                }
                Files.write(errorFiles.resolve(status + ".http"), in.readAllBytes());
            }
        }
    }

    /**
     * Waits until HAProxy has every replica in rotation. It checks each one every second and starts before the
     * services (they reach each other through it), so a replica that was not listening yet at its first checks is
     * routed to only after its next good one, a moment after it reported healthy: a stack that says it is up must
     * route to all of it (a fresh-clone CI run met the balanced port answering 503 in that moment).
     */
    void awaitInRotation(Duration patience) {
        if (statsSocket.toAbsolutePath().toString().length() > MAX_SOCKET_PATH) {
            log.warn("HAProxy's stats socket path {} is too long for a Unix socket; cannot tell which replicas are in "
                    + "rotation", statsSocket);
            return;
        }
        long deadline = System.nanoTime() + patience.toNanos();
        List<String> outOfRotation = outOfRotation();
        while (!outOfRotation.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new ChildFailedException("HAProxy has not taken " + outOfRotation + " into rotation within "
                        + patience + " although they report healthy; see " + logFile);
            }
            sleep();
            outOfRotation = outOfRotation();
        }
    }

    /** The replicas HAProxy does not route to now, by its {@code show stat} (every one while it cannot be asked). */
    private List<String> outOfRotation() {
        Map<String, String> status = new LinkedHashMap<>();
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(statsSocket));
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            StringBuilder answer = new StringBuilder();
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                answer.append(StandardCharsets.US_ASCII.decode(buffer));
                buffer.clear();
            }
            List<String> lines = answer.toString().lines().toList();
            List<String> header = lines.isEmpty() ? List.of() : List.of(lines.get(0).replaceFirst("^# ", "").split(","));
            int column = header.indexOf("status");
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] fields = line.split(",", -1);
                if (column >= 0 && fields.length > column) {
                    status.put(fields[0] + "/" + fields[1], fields[column]);
                }
            }
        } catch (IOException e) {
            // Not listening yet, or gone: nothing is known to be in rotation.
        }
        List<String> out = new ArrayList<>();
        for (Frontend frontend : frontends) {
            frontend.replicas().keySet().forEach(replica -> {
                if (!status.getOrDefault(frontend.service().id() + "/" + replica, "").startsWith("UP")) {
                    out.add(replica);
                }
            });
        }
        return out;
    }

    /** "payment-service :8082 -> payment-service-1 :41234, ..." */
    String describe() {
        List<String> parts = new ArrayList<>();
        for (Frontend frontend : frontends) {
            Map<String, Integer> replicas = new LinkedHashMap<>(frontend.replicas());
            parts.add(frontend.service().id() + " :" + frontend.port() + " -> " + String.join(", ",
                    replicas.entrySet().stream().map(e -> e.getKey() + " :" + e.getValue()).toList()));
        }
        return String.join("; ", parts);
    }

    synchronized OptionalLong pid() {
        return process != null && process.isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }

    @Override
    public synchronized void close() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        log.info("HAProxy stopped");
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChildFailedException("interrupted while waiting for HAProxy");
        }
    }
}

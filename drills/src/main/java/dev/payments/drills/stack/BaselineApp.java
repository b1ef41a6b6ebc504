package dev.payments.drills.stack;

import dev.payments.localstack.http.Http;
import dev.payments.localstack.RepositoryRoot;
import dev.payments.localstack.identity.Tokens;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.FreePorts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * One of field report 000's broken structures ({@code drills/baseline}) in its own JVM, on a database of its own in
 * the stack's PostgreSQL, against the stack's PG simulator: a target the same scenario can run against. It answers
 * the load generator's order and confirm calls and the drill's audit reads itself; the PG, Kafka, PostgreSQL and the
 * tokens (sent, ignored) are the stack's. It has no reconciliation, so the audit's identity is the drill's own.
 */
public final class BaselineApp implements Target {

    private static final String MODULE = "drills/baseline";
    private static final String ARTIFACT = "drills-baseline";

    private final Target stack;
    private final String structure;
    private final Process process;
    private final String url;
    private final Path workDir;
    private final List<String> arguments;

    private BaselineApp(Target stack, String structure, Process process, String url, Path workDir,
                        List<String> arguments) {
        this.stack = stack;
        this.structure = structure;
        this.process = process;
        this.url = url;
        this.workDir = workDir;
        this.arguments = arguments;
    }

    /**
     * @param structure     {@code in-tx} or {@code after-commit} (the baseline's {@code baseline.structure})
     * @param jvmOptions    the same as the stack's services got
     * @param springArgs    further properties, e.g. the pool size the scenario gave payment-service
     * @param healthTimeout how long it may take to report UP
     */
    public static BaselineApp start(Target stack, String structure, List<String> jvmOptions, List<String> springArgs,
                                    Duration healthTimeout) {
        try {
            Path workDir = Files.createTempDirectory("drill-baseline-" + structure);
            // A copy, so a rebuild of the working tree while the drill runs cannot hand it a half-written jar.
            Path jar = Files.copy(runnableJar(RepositoryRoot.find(Path.of(""))), workDir.resolve(ARTIFACT + ".jar"),
                    StandardCopyOption.REPLACE_EXISTING);
            String database = "baseline_" + structure.replace('-', '_');
            recreateDatabase(stack.endpoints().postgresJdbcUrl(), database);
            int port = FreePorts.pick();
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.add("-jar");
            command.add(jar.toString());
            List<String> arguments = new ArrayList<>(List.of(
                    "--server.port=" + port,
                    "--spring.datasource.url=" + stack.jdbcUrl(database),
                    "--spring.datasource.username=" + EmbeddedPostgresServer.USERNAME,
                    "--spring.datasource.password=" + EmbeddedPostgresServer.PASSWORD,
                    "--baseline.structure=" + structure,
                    "--baseline.pg.url=" + stack.endpoints().pg()));
            arguments.addAll(springArgs);
            command.addAll(arguments);
            Path log = workDir.resolve("baseline.log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            BaselineApp app = new BaselineApp(stack, structure, process, "http://127.0.0.1:" + port, workDir,
                    List.copyOf(arguments));
            try {
                app.awaitHealthy(healthTimeout, log);
            } catch (RuntimeException e) {
                app.close();
                throw e;
            }
            return app;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path runnableJar(Path repo) throws IOException {
        Path target = repo.resolve(MODULE).resolve("target");
        if (Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(target)) {
                var newest = files.filter(f -> f.getFileName().toString().startsWith(ARTIFACT + "-")
                                && f.getFileName().toString().endsWith("-exec.jar"))
                        .max(Comparator.comparing(f -> f.toFile().lastModified()));
                if (newest.isPresent()) {
                    return newest.get();
                }
            }
        }
        throw new IllegalStateException("No runnable jar of " + MODULE + " under " + target
                + "; build first: ./mvnw -DskipTests install");
    }

    private static void recreateDatabase(String serverJdbcUrl, String database) {
        try (Connection c = DriverManager.getConnection(serverJdbcUrl, EmbeddedPostgresServer.USERNAME,
                EmbeddedPostgresServer.PASSWORD); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
            s.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create the baseline's database " + database, e);
        }
    }

    private void awaitHealthy(Duration timeout, Path log) {
        Http http = new Http();
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the baseline (" + structure + ") exited with " + process.exitValue()
                        + "; the end of its log:\n" + tail(log));
            }
            Http.Response r = http.get(url + "/actuator/health", Duration.ofSeconds(2));
            if (r.ok() && "UP".equals(r.json().path("status").asText())) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        throw new IllegalStateException("the baseline (" + structure + ") did not report UP within "
                + timeout.toSeconds() + " s; the end of its log:\n" + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /**
     * It answers orders, confirms and the audit's reads itself; it has no reconciliation, so the audit's reads of it
     * answer 404 and the drill computes the identity itself.
     */
    @Override
    public Endpoints endpoints() {
        Endpoints s = stack.endpoints();
        return new Endpoints(url, url, url, url, url, s.pg(), s.pgAdmin(), s.bootstrapServers(), s.postgresJdbcUrl());
    }

    @Override
    public Tokens tokens() {
        return stack.tokens();
    }

    /** The baseline, PostgreSQL, the simulator and the drill's own JVM; our services idle beside them. */
    @Override
    public Map<String, Long> processes() {
        Map<String, Long> pids = new LinkedHashMap<>();
        stack.processes().forEach((name, pid) -> {
            if (name.equals("postgres") || name.equals("pg-simulator") || name.equals(stack.launcherProcess())) {
                pids.put(name, pid);
            }
        });
        if (process.isAlive()) {
            pids.put("baseline", process.pid());
        }
        return pids;
    }

    @Override
    public String launcherProcess() {
        return stack.launcherProcess();
    }

    /** The confirm finds its order in its own database at once. */
    @Override
    public boolean learnsOrdersFromKafka() {
        return false;
    }

    @Override
    public void control(String component, String action) {
        throw new UnsupportedOperationException("the baseline (" + structure + ") has no " + component + " to "
                + action);
    }

    @Override
    public String describe() {
        return "field report 000's baseline structure '" + structure + "' (drills/baseline, its own JVM at " + url
                + ", arguments " + String.join(" ", arguments) + ") on the stack's PostgreSQL and PG simulator; "
                + "the stack: " + stack.describe();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            dev.payments.localstack.infra.TempDirectories.deleteRecursively(workDir);
        } catch (UncheckedIOException ignored) {
            // a temporary directory; the OS cleans it eventually
        }
    }
}

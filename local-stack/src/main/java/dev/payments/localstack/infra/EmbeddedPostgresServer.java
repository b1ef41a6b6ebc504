package dev.payments.localstack.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL 17 server (zonky binaries) configured for Debezium's {@code pgoutput} logical decoding.
 *
 * <p>The data directory and the port survive {@link #stop()}, {@link #start()} and {@link #restart()}, so
 * a drill can take the database away under load and bring the same one back. {@link #close()} stops the
 * server and deletes the data directory only if it was a temporary one.
 */
public final class EmbeddedPostgresServer implements EmbeddedServer {

    public static final String USERNAME = "postgres";
    public static final String PASSWORD = "postgres";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    private final Options options;
    private final int port;
    private final Path dataDirectory;
    private final boolean temporaryDataDirectory;
    private EmbeddedPostgres postgres;

    public EmbeddedPostgresServer(Options options) {
        this.options = options;
        this.port = FreePorts.orPick(options.port());
        this.temporaryDataDirectory = options.dataDirectory() == null;
        this.dataDirectory = temporaryDataDirectory
                ? TempDirectories.create("embedded-pg-data")
                : options.dataDirectory().toAbsolutePath();
    }

    /** Creates and starts a server. */
    public static EmbeddedPostgresServer start(Options options) {
        EmbeddedPostgresServer server = new EmbeddedPostgresServer(options);
        server.start();
        return server;
    }

    /** Starts the server on its data directory and port; initialises the directory on first use. No-op if running. */
    @Override
    public synchronized void start() {
        if (postgres != null) {
            return;
        }
        long began = System.nanoTime();
        try {
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDirectory)
                    // initdb runs only when the directory holds no cluster yet; never wipe it on start/stop.
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(options.registerShutdownHook())
                    .setPGStartupWait(Duration.ofSeconds(60));
            options.serverSettings().forEach(builder::setServerConfig);
            builder.setServerConfig("hba_file", ServiceDatabases.writeHostBasedAuthentication(dataDirectory).toString());
            if (options.logFile() != null) {
                Files.createDirectories(options.logFile().toAbsolutePath().getParent());
                ProcessBuilder.Redirect append = ProcessBuilder.Redirect.appendTo(options.logFile().toFile());
                builder.setOutputRedirector(append).setErrorRedirector(append);
            }
            postgres = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start on port " + port + " in " + dataDirectory, e);
        }
        log.info("PostgreSQL started on port {} with data in {} ({} ms)", port, dataDirectory, millisSince(began));
    }

    /** Fast shutdown ({@code pg_ctl stop -m fast}); the data directory is kept. No-op if stopped. */
    @Override
    public synchronized void stop() {
        if (postgres == null) {
            return;
        }
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL on port " + port + " did not stop", e);
        } finally {
            postgres = null;
        }
        log.info("PostgreSQL on port {} stopped", port);
    }

    /**
     * SIGKILL to the postmaster and every backend, like a crashed host; {@link #start()} afterwards recovers
     * from the WAL. No-op if stopped.
     */
    @Override
    public synchronized void kill() {
        if (postgres == null) {
            return;
        }
        List<ProcessHandle> killed = new ArrayList<>();
        postmasterPid().stream().mapToObj(ProcessHandle::of).flatMap(Optional::stream).forEach(postmaster -> {
            killed.addAll(postmaster.descendants().toList());
            killed.add(postmaster);
        });
        killed.forEach(ProcessHandle::destroyForcibly);
        // Not this JVM's children (pg_ctl daemonises the postmaster), so onExit() would only poll slowly.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (killed.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            sleepQuietly(Duration.ofMillis(20));
        }
        log.info("PostgreSQL on port {} killed (pids {}); zonky's 'Could not stop postmaster' below is expected", port,
                killed.stream().map(ProcessHandle::pid).toList());
        try {
            // Releases zonky's lock on the data directory; its pg_ctl stop finds no server, which is expected.
            postgres.close();
        } catch (IOException | RuntimeException e) {
            log.debug("closing zonky after a kill", e);
        } finally {
            postgres = null;
        }
    }

    /** Stops and starts again on the same data directory and port. */
    public synchronized void restart() {
        stop();
        start();
    }

    @Override
    public synchronized boolean isRunning() {
        return postgres != null;
    }

    /** Creates a service's database and its role unless they exist ({@link ServiceDatabases#create}). */
    public void createDatabase(String name) {
        ServiceDatabases.create(() -> connect("postgres"), name);
    }

    /** A new connection as the superuser; the caller closes it. */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), USERNAME, PASSWORD);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public int port() {
        return port;
    }

    public String username() {
        return USERNAME;
    }

    public String password() {
        return PASSWORD;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The postmaster: PostgreSQL's processes are its descendants. */
    @Override
    public OptionalLong pid() {
        return postmasterPid();
    }

    /** The JDBC URL of the {@code postgres} maintenance database. */
    @Override
    public String url() {
        return jdbcUrl("postgres");
    }

    /** Process id of the postmaster, read from {@code postmaster.pid}; empty when stopped. */
    public synchronized OptionalLong postmasterPid() {
        if (postgres == null) {
            return OptionalLong.empty();
        }
        try {
            String firstLine = Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim();
            return OptionalLong.of(Long.parseLong(firstLine));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public synchronized void close() {
        try {
            stop();
        } finally {
            if (temporaryDataDirectory) {
                TempDirectories.deleteRecursively(dataDirectory);
            }
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long millisSince(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos).toMillis();
    }

    /**
     * How to run the server.
     *
     * @param port 0 picks a free port once; restarts keep it
     * @param dataDirectory a persistent directory, or {@code null} for a temporary one deleted on {@link #close()}
     * @param serverSettings {@code postgresql.conf} settings passed as {@code -c name=value}
     * @param logFile where the server's output goes, or {@code null} to log it through SLF4J
     * @param registerShutdownHook let zonky stop the server when the JVM exits; an owner that orders its own
     *     shutdown (children before the database) turns it off
     */
    public record Options(int port, Path dataDirectory, Map<String, String> serverSettings, Path logFile,
                          boolean registerShutdownHook) {

        public Options {
            serverSettings = Map.copyOf(serverSettings);
        }

        /** Random port, temporary data directory, settings for logical replication, fsync on. */
        public static Options defaults() {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("wal_level", "logical");
            settings.put("max_wal_senders", "20");
            settings.put("max_replication_slots", "20");
            // zonky turns this off; with it off the WAL sender sees a commit up to wal_writer_delay
            // (200 ms) late, which adds that much to every CDC event (STACK.md).
            settings.put("synchronous_commit", "on");
            // A slot whose consumer is gone must not fill the disk.
            settings.put("max_slot_wal_keep_size", "1GB");
            settings.put("max_connections", "300");
            settings.put("timezone", "UTC");
            settings.put("fsync", "on");
            return new Options(0, null, settings, null, true);
        }

        /** Defaults with fsync and full-page writes off: for tests whose data need not survive a machine crash. */
        public static Options forTests() {
            return defaults().withSetting("fsync", "off").withSetting("full_page_writes", "off");
        }

        public Options withPort(int newPort) {
            return new Options(newPort, dataDirectory, serverSettings, logFile, registerShutdownHook);
        }

        public Options withDataDirectory(Path directory) {
            return new Options(port, directory, serverSettings, logFile, registerShutdownHook);
        }

        public Options withSetting(String name, String value) {
            Map<String, String> settings = new LinkedHashMap<>(serverSettings);
            settings.put(name, value);
            return new Options(port, dataDirectory, settings, logFile, registerShutdownHook);
        }

        public Options withLogFile(Path file) {
            return new Options(port, dataDirectory, serverSettings, file, registerShutdownHook);
        }

        public Options withRegisterShutdownHook(boolean register) {
            return new Options(port, dataDirectory, serverSettings, logFile, register);
        }
    }
}

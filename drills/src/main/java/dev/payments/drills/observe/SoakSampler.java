package dev.payments.drills.observe;

import dev.payments.drills.stack.Target;
import dev.payments.drills.analysis.Slope.Point;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.Recorder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The soak drill's slow sampler: once a minute, what could grow over hours. Per JVM, the heap right after a full GC
 * ({@code jcmd GC.run}, then {@code jstat -gc}: what is still reachable, not what the collector has not got to yet)
 * and the resident set ({@code /proc/<pid>/status} VmRSS); per database its size and each table's
 * {@code pg_total_relation_size}; PostgreSQL's WAL directory; Kafka's log size per topic (the broker's log dirs);
 * consumer lag; the approvals answered in the last minute and their latency. Every value is a series of
 * {@link Point}s keyed {@code heap/<jvm>}, {@code rss/<process>}, {@code db/<database>}, {@code table/<db>/<table>},
 * {@code wal}, {@code kafka/<topic>}, {@code lag/<group>}, {@code latency-p50}, {@code latency-p99}, {@code approvals}.
 */
public final class SoakSampler {

    private final Target target;
    private final Map<String, Object> kafkaClient;
    private final Recorder recorder;
    private final Clock clock;
    private final Map<String, List<Point>> series = new TreeMap<>();
    private final Path javaBin = Path.of(System.getProperty("java.home"), "bin");

    public SoakSampler(Target target, Recorder recorder, Clock clock) {
        this.target = target;
        this.kafkaClient = target.kafkaClient();
        this.recorder = recorder;
        this.clock = clock;
    }

    /** One round of every reading; a reading that fails leaves a gap in its series, never stops the others. */
    public void sample() {
        double t = clock.seconds();
        target.processes().forEach((name, pid) -> {
            readRss(pid).ifPresent(kb -> put("rss/" + name, t, kb / 1024.0));
            if (!name.equals("postgres") && !name.equals("launcher")) {
                heapAfterFullGc(pid).ifPresent(kb -> put("heap/" + name, t, kb / 1024.0));
            }
        });
        readPostgres(t);
        readKafka(t);
        readLatency(t);
    }

    public synchronized Map<String, List<Point>> series() {
        Map<String, List<Point>> copy = new TreeMap<>();
        series.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        return copy;
    }

    private synchronized void put(String key, double t, double value) {
        series.computeIfAbsent(key, k -> new ArrayList<>()).add(new Point(t, value));
    }

    static java.util.OptionalLong readRss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return java.util.OptionalLong.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone or restarting
        }
        return java.util.OptionalLong.empty();
    }

    /** KB of heap in use right after a full collection, or empty if the JVM could not be asked. */
    private java.util.OptionalDouble heapAfterFullGc(long pid) {
        if (run(javaBin.resolve("jcmd").toString(), Long.toString(pid), "GC.run") == null) {
            return java.util.OptionalDouble.empty();
        }
        String out = run(javaBin.resolve("jstat").toString(), "-gc", Long.toString(pid));
        return out == null ? java.util.OptionalDouble.empty() : JstatGc.heapUsedKb(out);
    }

    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return null;
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void readPostgres(double t) {
        List<String> databases = new ArrayList<>();
        try (Connection c = target.connect("postgres");
             Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT datname, pg_database_size(datname) FROM pg_database "
                    + "WHERE NOT datistemplate AND datname <> 'postgres'")) {
                while (r.next()) {
                    databases.add(r.getString(1));
                    put("db/" + r.getString(1), t, r.getLong(2) / 1048576.0);
                }
            }
            try (ResultSet r = s.executeQuery("SELECT coalesce(sum(size), 0) FROM pg_ls_waldir()")) {
                r.next();
                put("wal", t, r.getLong(1) / 1048576.0);
            }
            try (ResultSet r = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
                r.next();
                put("wal-written", t, r.getDouble(1) / 1048576.0);
            }
        } catch (SQLException e) {
            return;
        }
        for (String database : databases) {
            try (Connection c = target.connect(database);
                 Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT relname, pg_total_relation_size(relid), n_live_tup "
                         + "FROM pg_stat_user_tables")) {
                while (r.next()) {
                    put("table/" + database + "/" + r.getString(1), t, r.getLong(2) / 1048576.0);
                    put("rows/" + database + "/" + r.getString(1), t, r.getLong(3));
                }
            } catch (SQLException e) {
                // a database that went away between the two queries
            }
        }
    }

    private void readKafka(double t) {
        try (ConsumerLag kafka = new ConsumerLag(kafkaClient)) {
            Map<String, Long> bytes = kafka.logBytes();
            if (bytes != null) {
                bytes.forEach((topic, size) -> put("kafka/" + topic, t, size / 1048576.0));
            }
            Map<String, Long> behind = kafka.read();
            if (behind != null) {
                behind.forEach((group, n) -> put("lag/" + group, t, n));
            }
        }
    }

    private void readLatency(double t) {
        long from = clock.nanos(t - 60);
        long to = clock.nanos(t);
        List<Double> latencies = new ArrayList<>();
        for (Attempt a : recorder.attempts()) {
            if (a.endNanos() > from && a.endNanos() <= to && "approved".equals(a.outcome())) {
                latencies.add(a.latencyMillis());
            }
        }
        put("approvals", t, latencies.size());
        if (!latencies.isEmpty()) {
            latencies.sort(Double::compare);
            put("latency-p50", t, latencies.get((int) Math.ceil(0.50 * latencies.size()) - 1));
            put("latency-p99", t, latencies.get((int) Math.ceil(0.99 * latencies.size()) - 1));
        }
    }

    /** {@code jstat -gc}'s used columns: survivors, eden and old generation, in KB. */
    static final class JstatGc {
        private JstatGc() {
        }

        static java.util.OptionalDouble heapUsedKb(String output) {
            String[] lines = output.trim().split("\\R");
            if (lines.length < 2) {
                return java.util.OptionalDouble.empty();
            }
            String[] head = lines[0].trim().split("\\s+");
            String[] values = lines[lines.length - 1].trim().split("\\s+");
            Map<String, Double> byName = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(head.length, values.length); i++) {
                try {
                    byName.put(head[i], Double.parseDouble(values[i]));
                } catch (NumberFormatException e) {
                    // "-" for a column the collector does not have
                }
            }
            double used = 0;
            boolean any = false;
            for (String column : List.of("S0U", "S1U", "EU", "OU")) {
                Double v = byName.get(column);
                if (v != null) {
                    used += v;
                    any = true;
                }
            }
            return any ? java.util.OptionalDouble.of(used) : java.util.OptionalDouble.empty();
        }
    }
}

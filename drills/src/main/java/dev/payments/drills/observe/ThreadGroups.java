package dev.payments.drills.observe;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which part of a JVM a thread works for, from the name the kernel shows (Java's thread name cut to 15 characters):
 * where a process's CPU goes, without a profiler. Checked against {@code /proc/<pid>/task/<tid>/comm} of the
 * services, the launcher (Kafka) and the simulator.
 */
public final class ThreadGroups {

    public static final String JIT = "JIT compiler";
    public static final String GC = "GC and VM";
    public static final String OTHER = "other";

    /** First matching prefix wins; the order puts the specific before the general. */
    private static final Map<String, String> PREFIXES = new LinkedHashMap<>();

    static {
        PREFIXES.put("C1 CompilerThre", JIT);
        PREFIXES.put("C2 CompilerThre", JIT);
        PREFIXES.put("VM Thread", GC);        // the serial collector works in the VM thread
        PREFIXES.put("GC Thread", GC);
        PREFIXES.put("G1 ", GC);
        PREFIXES.put("VM Periodic", GC);
        PREFIXES.put("http-nio-", "Tomcat request threads");
        PREFIXES.put("reactor-http", "Netty event loops");
        PREFIXES.put("debezium", "outbox relay (Debezium)");
        PREFIXES.put("outbox-", "outbox relay (Debezium)");
        PREFIXES.put("KafkaBasedLog", "outbox relay (Debezium)");
        PREFIXES.put("org.springframe", "Kafka listeners");   // KafkaListenerEndpointContainer#n-C-1
        PREFIXES.put("kafka-coordinat", "Kafka listeners");
        PREFIXES.put("kafka-producer-", "Kafka producer");
        PREFIXES.put("kafka-admin-cli", "Kafka admin client");
        PREFIXES.put("HttpClient-", "JDK HTTP client");
        PREFIXES.put("PostgreSQL-JDBC", "JDBC driver");
        PREFIXES.put("HikariPool", "Hikari pool");
        PREFIXES.put("scheduling-", "@Scheduled jobs");
        PREFIXES.put("prometheus-", "metrics");
        PREFIXES.put("micrometer", "metrics");
        PREFIXES.put("load-", "load generator");
        PREFIXES.put("drill-", "drill observers");
    }

    private ThreadGroups() {
    }

    /**
     * @param launcher the drill's own JVM, where Kafka's broker runs: its unnamed-by-us threads are the broker's
     */
    public static String of(String threadName, boolean launcher) {
        for (Map.Entry<String, String> prefix : PREFIXES.entrySet()) {
            if (threadName.startsWith(prefix.getKey())) {
                String group = prefix.getValue();
                if (launcher && group.equals("JDK HTTP client")) {
                    return "load generator";   // the load's HttpClient and the drill's reads of the services
                }
                return launcher && group.equals("Kafka admin client") ? "drill observers" : group;
            }
        }
        return launcher ? "Kafka broker and other" : OTHER;
    }

    /** PostgreSQL's own processes, which are not per database. */
    private static final java.util.Set<String> POSTGRES_BACKGROUND = java.util.Set.of("checkpointer", "background",
            "walwriter", "autovacuum", "logical", "archiver", "stats", "startup", "walsummarizer", "io");

    /**
     * Which part of PostgreSQL a child of the postmaster works for, from its title: {@code backends <database>} (the
     * connections of the service that owns it), {@code walsender <database>} (logical decoding for that database's
     * relay), {@code background} (checkpointer, WAL writer, autovacuum ...).
     */
    public static String ofPostgresProcess(String title) {
        String[] words = title.split("\\s+");
        if (words.length < 2 || !words[0].equals("postgres:")) {
            return OTHER;
        }
        if (words[1].equals("walsender")) {
            return words.length > 3 ? "walsender " + words[3] : "walsender";
        }
        if (POSTGRES_BACKGROUND.contains(words[1])) {
            return "background";
        }
        return words.length > 2 ? "backends " + words[2] : OTHER;
    }
}

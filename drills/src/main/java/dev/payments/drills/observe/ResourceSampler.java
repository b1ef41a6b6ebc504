package dev.payments.drills.observe;

import dev.payments.localstack.ProcessCpu;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Every second, cumulative counters of what the stack spends: CPU seconds of each process (from {@code /proc}), of
 * each process's thread groups ({@link ThreadGroups}), of the whole machine, and PostgreSQL's own counters
 * ({@link PostgresCounters}: commits, statements, WAL syncs). Differences over the steady part of a step, divided by
 * the approvals in it, are the cost of one approval ({@code analysis.Costs}).
 *
 * <p>Keys: {@code cpu/<process>}, {@code cpu/<process>/<thread group>}, {@code cpu/machine}, and whatever the
 * PostgreSQL counters name. A process that restarts (a crash drill) keeps counting from where its predecessor was.
 */
public final class ResourceSampler implements AutoCloseable {

    public static final String CPU = "cpu/";
    public static final String MACHINE = "cpu/machine";
    /** Threads that ended between two samples: their last second is lost to the groups, not to the process. */
    public static final String ENDED_THREADS = "threads that ended";
    /** A process tree's own time and its ended children's, beside its live children's groups. */
    public static final String POSTMASTER = "postmaster and ended processes";

    /**
     * Thread and child-process groups are read every this many samples: reading every thread of every JVM each
     * second cost the drill 5.8 % of both cores (perf), more than some of what it measures.
     */
    static final int GROUPS_EVERY = 5;

    /** One reading: drill time and cumulative counters. */
    public record Counters(double t, Map<String, Double> values) {
    }

    private final Supplier<Map<String, Long>> processes;
    private final String launcher;
    private final PostgresCounters postgres;
    private final Clock clock;
    private final List<Counters> samples = new ArrayList<>();
    private final Map<String, Process> known = new HashMap<>();
    private long samplesTaken;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "drill-resources");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param processes what to measure, by name (e.g. {@code RunningStack#processes()}); asked every second
     * @param launcher  the name of the process that is this JVM (measured alone, not with its child JVMs), or null
     * @param postgres  PostgreSQL's counters, or null
     */
    public ResourceSampler(Supplier<Map<String, Long>> processes, String launcher, PostgresCounters postgres,
                           Clock clock) {
        this.processes = processes;
        this.launcher = launcher;
        this.postgres = postgres;
        this.clock = clock;
    }

    public void start() {
        scheduler.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    /** One sample now (the scheduler's, and the tests'). */
    void sample() {
        try {
            double t = clock.seconds();
            Map<String, Double> values = new LinkedHashMap<>();
            boolean groups = samplesTaken++ % GROUPS_EVERY == 0;
            ProcessCpu.Snapshot all = ProcessCpu.snapshot();
            processes.get().forEach((name, pid) -> known.computeIfAbsent(name, n -> new Process())
                    .read(name, pid, name.equals(launcher), groups, all, values));
            machineBusy().ifPresent(v -> values.put(MACHINE, v));
            if (postgres != null) {
                values.putAll(postgres.read());
            }
            synchronized (samples) {
                samples.add(new Counters(t, values));
            }
        } catch (RuntimeException e) {
            // A sample missed is a gap the analysis interpolates over; the sampler must outlive it.
        }
    }

    public List<Counters> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** Busy seconds of every CPU of the machine (everything but idle and iowait), whoever spent them. */
    static OptionalDouble machineBusy() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            double busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) {   // idle, iowait
                    busy += Long.parseLong(f[i]);
                }
            }
            return OptionalDouble.of(busy / 100.0);
        } catch (Exception e) {
            return OptionalDouble.empty();
        }
    }

    /** One named process across restarts: the offset of its predecessors and its threads' last readings. */
    private static final class Process {
        private long pid = -1;
        private double offset;
        private double last;
        /** The process's time when its groups were last read. */
        private double lastGrouped;
        private final Map<String, Double> groups = new HashMap<>();
        private Map<Long, ProcessCpu.ThreadTime> threads = Map.of();
        private Map<Long, ProcessCpu.ChildTime> children = Map.of();

        void read(String name, long newPid, boolean alone, boolean withGroups, ProcessCpu.Snapshot all,
                  Map<String, Double> out) {
            OptionalDouble reading = alone ? ProcessCpu.ofProcess(newPid) : all.ofTree(newPid);
            if (reading.isEmpty()) {
                return;
            }
            if (newPid != pid) {
                offset += last;
                last = 0;
                lastGrouped = 0;
                threads = Map.of();
                children = Map.of();
                pid = newPid;
            }
            last = reading.getAsDouble();
            out.put(CPU + name, offset + last);
            if (!withGroups) {
                return;
            }
            double previous = lastGrouped;
            lastGrouped = last;
            if (!alone && childGroups(all.children(newPid), last - previous)) {
                groups.forEach((group, seconds) -> out.put(CPU + name + "/" + group, seconds));
                return;
            }
            Map<Long, ProcessCpu.ThreadTime> now = ProcessCpu.threads(newPid);
            double known = 0;
            for (Map.Entry<Long, ProcessCpu.ThreadTime> e : now.entrySet()) {
                ProcessCpu.ThreadTime before = threads.get(e.getKey());
                double delta = before == null ? e.getValue().seconds() : e.getValue().seconds() - before.seconds();
                known += delta;
                groups.merge(ThreadGroups.of(e.getValue().name(), alone), delta, Double::sum);
            }
            if (!threads.isEmpty()) {
                // A JVM's ended threads land here.
                groups.merge(ENDED_THREADS, Math.max(0, (last - previous) - known), Double::sum);
            }
            threads = now;
            if (now.size() > 1) {
                groups.forEach((group, seconds) -> out.put(CPU + name + "/" + group, seconds));
            }
        }

        /**
         * PostgreSQL forks a process per connection: its children by title ({@link ThreadGroups#ofPostgresProcess}),
         * and the postmaster with the children that ended as the rest of the tree's time. A JVM has no children.
         */
        private boolean childGroups(Map<Long, ProcessCpu.ChildTime> now, double treeDelta) {
            if (now.isEmpty()) {
                return false;
            }
            double known = 0;
            for (Map.Entry<Long, ProcessCpu.ChildTime> e : now.entrySet()) {
                ProcessCpu.ChildTime before = children.get(e.getKey());
                double delta = before == null ? e.getValue().seconds() : e.getValue().seconds() - before.seconds();
                known += delta;
                groups.merge(ThreadGroups.ofPostgresProcess(e.getValue().title()), delta, Double::sum);
            }
            if (!children.isEmpty()) {
                groups.merge(POSTMASTER, Math.max(0, treeDelta - known), Double::sum);
            }
            children = now;
            return true;
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (postgres != null) {
            postgres.close();
        }
    }
}

package dev.payments.localstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * CPU time of processes and their threads, from Linux's {@code /proc/<pid>/stat} (user + system time). Elsewhere
 * every reading is empty. Cumulative seconds since each process started: a drill takes the difference over the
 * steady part of a step and divides by the approvals in it.
 *
 * <p>A process tree is counted with what its exited children spent ({@code cutime + cstime}, filled in when the
 * parent reaps them): PostgreSQL forks a backend per connection and the postmaster reaps it, so a backend that ended
 * during a step is still counted.
 */
public final class ProcessCpu {

    private static final Path PROC = Path.of("/proc");
    /** {@code getconf CLK_TCK}: 100 on every Linux the JDK supports (USER_HZ is fixed in the kernel's ABI). */
    static final double TICKS_PER_SECOND = 100.0;

    /** One thread: its name as the kernel knows it (Java sets it, cut to 15 characters) and its CPU seconds. */
    public record ThreadTime(String name, double seconds) {
    }

    private ProcessCpu() {
    }

    /** User + system seconds of this process alone (its threads, not its children). */
    public static OptionalDouble ofProcess(long pid) {
        long[] f = fields(PROC.resolve(Long.toString(pid)).resolve("stat"));
        return f == null ? OptionalDouble.empty() : OptionalDouble.of((f[0] + f[1]) / TICKS_PER_SECOND);
    }

    /**
     * The process, every live descendant, and every descendant that exited and was reaped: PostgreSQL's postmaster
     * with all its backends, past and present.
     */
    public static OptionalDouble ofTree(long pid) {
        return snapshot().ofTree(pid);
    }

    /**
     * One child process: its title as {@code ps} shows it (PostgreSQL sets {@code postgres: <user> <database> ...},
     * {@code postgres: walsender ...}, {@code postgres: checkpointer}) and the CPU seconds of its tree.
     */
    public record ChildTime(String title, double seconds) {
    }

    /**
     * Every process's times and parent, read once. {@link ProcessHandle#children()} scans all of {@code /proc} each
     * time it is asked, so a tree of 40 PostgreSQL backends walked child by child read {@code /proc} 40 times a
     * second: the drill's sampler cost 6-8 % of both cores (perf).
     */
    public static Snapshot snapshot() {
        Map<Long, long[]> times = new HashMap<>();
        Map<Long, List<Long>> children = new HashMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(PROC, entry -> isPid(entry.getFileName().toString()))) {
            for (Path process : dir) {
                String stat;
                try {
                    stat = Files.readString(process.resolve("stat"));
                } catch (IOException e) {
                    continue;   // it ended while we listed them
                }
                long pid = Long.parseLong(process.getFileName().toString());
                times.put(pid, parse(stat));
                children.computeIfAbsent(parent(stat), k -> new ArrayList<>()).add(pid);
            }
        } catch (IOException | RuntimeException e) {
            return new Snapshot(Map.of(), Map.of());
        }
        return new Snapshot(times, children);
    }

    /** What {@link #snapshot()} read. */
    public static final class Snapshot {

        private final Map<Long, long[]> times;
        private final Map<Long, List<Long>> children;

        private Snapshot(Map<Long, long[]> times, Map<Long, List<Long>> children) {
            this.times = times;
            this.children = children;
        }

        /** As {@link ProcessCpu#ofTree(long)}. */
        public OptionalDouble ofTree(long pid) {
            long[] f = times.get(pid);
            if (f == null) {
                return OptionalDouble.empty();
            }
            double seconds = (f[0] + f[1] + f[2] + f[3]) / TICKS_PER_SECOND;
            for (long child : children.getOrDefault(pid, List.of())) {
                seconds += ofTree(child).orElse(0);
            }
            return OptionalDouble.of(seconds);
        }

        /** Every live child of the process by pid, with its title; empty if it has none or is gone. */
        public Map<Long, ChildTime> children(long pid) {
            Map<Long, ChildTime> found = new LinkedHashMap<>();
            for (long child : children.getOrDefault(pid, List.of())) {
                OptionalDouble seconds = ofTree(child);
                String title = title(child);
                if (seconds.isPresent() && title != null) {
                    found.put(child, new ChildTime(title, seconds.getAsDouble()));
                }
            }
            return found;
        }
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /** The parent's pid: field 4, the second after the command name. */
    static long parent(String stat) {
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+", 3)[1]);
    }

    private static String title(long pid) {
        try {
            byte[] cmdline = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
            return new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' ').trim();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Every live thread of the process by thread id; empty if the process is gone or this is not Linux. One file per
     * thread: the name is the one in {@code stat}'s parentheses, the same as {@code comm}.
     */
    public static Map<Long, ThreadTime> threads(long pid) {
        Map<Long, ThreadTime> threads = new LinkedHashMap<>();
        Path tasks = PROC.resolve(Long.toString(pid)).resolve("task");
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue;   // the thread ended while we listed them
                }
                long[] f = parse(stat);
                threads.put(Long.parseLong(task.getFileName().toString()),
                        new ThreadTime(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
                                (f[0] + f[1]) / TICKS_PER_SECOND));
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return threads;
    }

    /** utime, stime, cutime, cstime in ticks, or null if unreadable. */
    private static long[] fields(Path stat) {
        try {
            return parse(Files.readString(stat));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The fields after the command name, which sits in parentheses and may itself contain spaces and parentheses:
     * state is field 3, utime 14, stime 15, cutime 16, cstime 17 (proc(5)).
     */
    static long[] parse(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return new long[]{Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
    }
}

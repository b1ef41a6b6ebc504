package dev.payments.payment.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What both benchmarks share: {@code key=value} arguments, the machine they ran on, and a hard stop. */
final class BenchRun {

    private final Map<String, String> arguments = new HashMap<>();

    private BenchRun(String[] args) {
        for (String arg : args) {
            if (arg.isBlank()) {
                continue;
            }
            int eq = arg.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("Arguments are key=value, got '" + arg + "'");
            }
            arguments.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
    }

    /**
     * Parses the arguments, prints the machine, and arms a watchdog: the benchmark stops by itself even if something
     * it waits on never answers.
     */
    static BenchRun start(String name, String[] args, Duration defaultLimit) {
        BenchRun run = new BenchRun(args);
        Duration limit = Duration.ofMinutes(run.integer("timeoutMinutes", (int) defaultLimit.toMinutes()));
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
                System.err.println(name + ": still running after " + limit + ", stopping");
                Runtime.getRuntime().halt(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        System.out.println("== " + name + " ==");
        System.out.println("machine: " + machine());
        System.out.println("jvm args: " + ManagementFactory.getRuntimeMXBean().getInputArguments());
        return run;
    }

    int integer(String key, int defaultValue) {
        return Integer.parseInt(arguments.getOrDefault(key, String.valueOf(defaultValue)));
    }

    String string(String key, String defaultValue) {
        return arguments.getOrDefault(key, defaultValue);
    }

    /** Arguments {@code set.<property>=<value>}, as Spring properties for the service under test. */
    Map<String, String> springOverrides() {
        Map<String, String> overrides = new java.util.TreeMap<>();
        arguments.forEach((key, value) -> {
            if (key.startsWith("set.")) {
                overrides.put(key.substring(4), value);
            }
        });
        return overrides;
    }

    List<Integer> integers(String key, String defaultValue) {
        return Arrays.stream(arguments.getOrDefault(key, defaultValue).split(","))
                .map(String::trim).map(Integer::parseInt).collect(Collectors.toList());
    }

    static String machine() {
        return "nproc=" + Runtime.getRuntime().availableProcessors()
                + ", java " + System.getProperty("java.vm.version") + " (" + System.getProperty("java.vm.name") + ")"
                + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version")
                + ", cpu: " + cpuModel()
                + ", max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB"
                + ", load average " + String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /**
     * Linux CPU pressure: the share of the last 10 s in which some runnable task waited for a CPU (0-100). The noise
     * meter of a shared machine, printed with every round; NaN where the kernel does not report it.
     */
    static double cpuPressure() {
        try {
            String some = Files.readAllLines(Path.of("/proc/pressure/cpu")).get(0);
            String avg10 = some.substring(some.indexOf("avg10=") + 6);
            return Double.parseDouble(avg10.substring(0, avg10.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Garbage collections so far: {count, milliseconds} over every collector of this JVM. */
    static long[] gc() {
        long count = 0;
        long millis = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[]{count, millis};
    }

    /** CPU time this whole JVM has used, all threads. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** CPU time used so far by the live threads whose name contains {@code fragment}. */
    static long threadsCpuNanos(String fragment) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(fragment)) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}

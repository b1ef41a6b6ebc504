package dev.payments.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Memory of processes, from Linux's {@code /proc}. Elsewhere every reading is zero.
 *
 * <p>VmRSS counts every page a process has mapped, so a sum over PostgreSQL's backends counts its shared buffers
 * once per backend (and the JVMs' shared class data once per JVM). PSS splits each shared page among its
 * sharers, so a sum of PSS is what the machine actually spends. Both are reported.
 */
final class ResidentMemory {

    private static final Path PROC = Path.of("/proc");

    /** Bytes; {@code proportional} falls back to {@code resident} where smaps_rollup is unavailable. */
    record Usage(long resident, long proportional) {

        static final Usage NONE = new Usage(0, 0);

        Usage plus(Usage other) {
            return new Usage(resident + other.resident, proportional + other.proportional);
        }
    }

    private ResidentMemory() {
    }

    static Usage ofProcess(long pid) {
        Path directory = PROC.resolve(Long.toString(pid));
        OptionalLong resident = read(directory.resolve("status"), "VmRSS:");
        if (resident.isEmpty()) {
            return Usage.NONE;
        }
        OptionalLong proportional = read(directory.resolve("smaps_rollup"), "Pss:");
        return new Usage(resident.getAsLong(), proportional.orElse(resident.getAsLong()));
    }

    /** Sum over the processes and all their descendants (PostgreSQL's backends, for example), each counted once. */
    static Usage ofProcessTrees(Collection<Long> roots) {
        Set<Long> pids = new LinkedHashSet<>();
        for (long root : roots) {
            pids.add(root);
            ProcessHandle.of(root).ifPresent(handle -> handle.descendants().forEach(child -> pids.add(child.pid())));
        }
        return pids.stream().map(ResidentMemory::ofProcess).reduce(Usage.NONE, Usage::plus);
    }

    /** The value of a {@code Name:   123 kB} line, in bytes. */
    static OptionalLong parseKilobytes(String text, String field) {
        for (String line : text.split("\n")) {
            if (line.startsWith(field)) {
                String[] parts = line.substring(field.length()).trim().split("\\s+");
                return OptionalLong.of(Long.parseLong(parts[0]) * 1024);
            }
        }
        return OptionalLong.empty();
    }

    static String format(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format("%.2f GB", bytes / (double) (1L << 30));
        }
        return String.format("%d MB", Math.round(bytes / (double) (1L << 20)));
    }

    private static OptionalLong read(Path file, String field) {
        try {
            return parseKilobytes(Files.readString(file), field);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}

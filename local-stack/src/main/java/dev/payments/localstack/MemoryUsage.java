package dev.payments.localstack;

/**
 * Bytes of memory. The VmRSS total counts shared pages (PostgreSQL's shared buffers, the JVMs' class data) once
 * per process; the PSS total splits them among their sharers and is what the machine actually spends.
 */
public record MemoryUsage(long totalResident, long totalProportional, long launcherResident,
                          long launcherProportional) {
}

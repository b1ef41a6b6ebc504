package dev.payments.localstack;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One component as the control endpoint reports it.
 *
 * @param name the component's id, or {@code <id>-<n>} for one replica of several
 * @param pid the child's pid or PostgreSQL's postmaster; empty for Kafka, which runs inside the launcher
 * @param residentBytes VmRSS of the process and its descendants; 0 when not running or unknown
 * @param proportionalBytes PSS of the same processes: shared pages split among their sharers
 * @param startup from start to ready, of the latest start
 * @param exitCode of the latest exit of a child
 */
public record ComponentStatus(Component component, String name, ComponentState state, OptionalLong pid, String url,
                              long residentBytes, long proportionalBytes, Optional<Duration> startup, Optional<Integer> exitCode) {
}

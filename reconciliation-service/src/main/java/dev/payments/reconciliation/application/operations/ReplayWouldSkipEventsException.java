package dev.payments.reconciliation.application.operations;

import java.util.stream.Collectors;

/**
 * A replay whose timestamp lies beyond where the group stands: moving it there would skip events it has not applied,
 * which is losing them, not replaying them. Refused; nothing moved.
 */
public class ReplayWouldSkipEventsException extends RuntimeException {

    private final OffsetReset plan;

    public ReplayWouldSkipEventsException(OffsetReset plan) {
        super("Replaying " + plan.group() + " on " + plan.topic() + " from " + plan.from() + " would move it forward "
                + "past " + plan.skipped() + " record(s) it has not consumed ("
                + plan.partitions().stream().filter(p -> p.skipped() > 0)
                .map(p -> "partition " + p.partition() + ": at " + p.position() + ", target " + p.target())
                .collect(Collectors.joining("; "))
                + "). Replay from a time before the group's position; to skip events on purpose, use Kafka's own "
                + "tools (docs/runbooks/replay.md)");
        this.plan = plan;
    }

    public OffsetReset plan() {
        return plan;
    }
}

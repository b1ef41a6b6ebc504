package dev.payments.reconciliation.application.operations;

import java.time.Instant;
import java.util.Map;

/** Kafka consumer groups' committed offsets (port). */
public interface ConsumerGroups {

    /**
     * Where the group stands on every partition of {@code topic} and the first record at or after {@code from} (the
     * end, where there is none). Moves nothing.
     */
    OffsetReset plan(String group, String topic, Instant from);

    /**
     * Moves the group's committed offsets to the plan's targets. Kafka only allows this while the group has no
     * members; this service's own group is paused for the move and resumed after it.
     *
     * @throws ConsumerGroupActiveException if another service's group still has members
     */
    OffsetReset apply(OffsetReset plan);

    /** The group's committed offset per partition of {@code topic}; a partition it never committed on is absent. */
    Map<Integer, Long> committed(String group, String topic);
}

package dev.payments.reconciliation.domain.projection;

import java.time.Instant;

/**
 * The ordering rule of the projection. Events of one order share a partition of their topic, but the two topics
 * interleave freely, a redelivery or replay can bring an old event back, and a rebuilt projection must end where the
 * live one did. So the state is decided by lifecycle rank, not by arrival: a higher rank always wins, a lower or equal
 * one never moves the view back. Only between different outcomes of equal rank, which the state machine never chains,
 * does {@code occurredAt} decide (the later one wins, a tie keeps what is there), and the conflict is counted.
 * Producer clocks are not trusted beyond that: a payment's events may come from different replicas.
 */
final class Precedence {

    private Precedence() {
    }

    /**
     * @param effect    what the incoming event does to the view's state
     * @param takesOver whether the incoming event now decides the state (and the "last event" fields)
     */
    record Decision(ProjectionEffect effect, boolean takesOver) {
    }

    static <S extends Ranked> Decision decide(S current, Instant currentAt, S incoming, Instant incomingAt) {
        if (incoming.rank() > current.rank()) {
            return new Decision(ProjectionEffect.ADVANCED, true);
        }
        if (incoming.rank() < current.rank() || incoming.equals(current)) {
            return new Decision(ProjectionEffect.STALE, false);
        }
        return new Decision(ProjectionEffect.CONFLICT, incomingAt.isAfter(currentAt));
    }
}

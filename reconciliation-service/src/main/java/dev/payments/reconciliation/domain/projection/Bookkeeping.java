package dev.payments.reconciliation.domain.projection;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What every view keeps about the events behind it, payment and order alike: the event that decided its state (not
 * merely the latest to arrive), when this service first and last received one of its events (its own clock), how many
 * distinct events it applied (duplicates never reach a view: the inbox drops them), and how many named a contradicting
 * outcome of equal rank.
 */
public record Bookkeeping(UUID lastEventId, String lastEventType, Instant lastEventAt, Instant firstSeenAt,
                          Instant updatedAt, int eventsApplied, int conflicts) {

    public Bookkeeping {
        Objects.requireNonNull(lastEventId, "last event id");
        Objects.requireNonNull(lastEventType, "last event type");
        Objects.requireNonNull(lastEventAt, "last event time");
        Objects.requireNonNull(firstSeenAt, "first seen");
        Objects.requireNonNull(updatedAt, "updated");
    }

    /** The bookkeeping of a view created by {@code event}, received at {@code receivedAt}. */
    static Bookkeeping firstSeen(EventRef event, Instant receivedAt) {
        return new Bookkeeping(event.eventId(), event.type(), event.occurredAt(), receivedAt, receivedAt, 1, 0);
    }

    /** After one more event, which took over the view's state or not as {@code decision} says. */
    Bookkeeping after(EventRef event, Precedence.Decision decision, Instant receivedAt) {
        boolean takesOver = decision.takesOver();
        return new Bookkeeping(takesOver ? event.eventId() : lastEventId, takesOver ? event.type() : lastEventType,
                takesOver ? event.occurredAt() : lastEventAt, firstSeenAt,
                receivedAt.isAfter(updatedAt) ? receivedAt : updatedAt, eventsApplied + 1,
                conflicts + (decision.effect() == ProjectionEffect.CONFLICT ? 1 : 0));
    }
}

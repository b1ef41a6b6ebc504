package dev.payments.payment.domain.renewal;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * When a declined period is charged again (docs/renewals.md, "Dunning").
 *
 * @param retriesAfterFirstDecline each retry's time after the period's first decline, ascending (default 1 and 3
 *                                 days: three attempts in all); once they are used up the period is given up
 * @param afterNothingCharged      how long after an attempt that certainly charged nothing (the PG was not reached)
 *                                 the period is due again; not a dunning attempt, the card was never asked
 */
public record DunningPolicy(List<Duration> retriesAfterFirstDecline, Duration afterNothingCharged) {

    public DunningPolicy {
        retriesAfterFirstDecline = List.copyOf(retriesAfterFirstDecline);
        Objects.requireNonNull(afterNothingCharged);
        for (int i = 1; i < retriesAfterFirstDecline.size(); i++) {
            if (retriesAfterFirstDecline.get(i).compareTo(retriesAfterFirstDecline.get(i - 1)) <= 0) {
                throw new IllegalArgumentException("dunning retries must be ascending: " + retriesAfterFirstDecline);
            }
        }
    }

    /** When to try again after the {@code declines}-th decline of a period first declined at {@code firstDecline}. */
    Optional<Instant> retryAt(int declines, Instant firstDecline) {
        return declines <= retriesAfterFirstDecline.size()
                ? Optional.of(firstDecline.plus(retriesAfterFirstDecline.get(declines - 1)))
                : Optional.empty();
    }
}

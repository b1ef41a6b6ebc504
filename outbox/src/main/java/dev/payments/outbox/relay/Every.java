package dev.payments.outbox.relay;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** True once per interval, the first time at once: the relay's periodic checks inside its publishing loops. */
final class Every {

    private final Duration interval;
    private final Clock clock;
    private Instant next = Instant.MIN;

    Every(Duration interval, Clock clock) {
        this.interval = interval;
        this.clock = clock;
    }

    boolean now() {
        Instant at = clock.instant();
        if (at.isBefore(next)) {
            return false;
        }
        next = at.plus(interval);
        return true;
    }
}

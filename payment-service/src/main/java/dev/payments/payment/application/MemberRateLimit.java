package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;

import java.time.Duration;
import java.util.Optional;

/** The per-member approval rate (field report 000: 10 per member per minute), the same on every replica. */
public interface MemberRateLimit {

    /**
     * Takes one approval from the member's allowance, in the caller's transaction: taken if that transaction commits,
     * given back if it rolls back. The member's allowance stays locked until then, so two checks of one member wait
     * for each other and checks of different members never do.
     *
     * @return empty if allowed, else how long until the next one
     * @throws IllegalStateException                       when called outside a transaction
     * @throws org.springframework.dao.DataAccessException when the allowance could not be read or written (it lives
     *                                                     in the database); the caller's transaction must roll back
     */
    Optional<Duration> tryAcquire(MemberId member);
}

package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;

import java.time.Duration;
import java.util.Optional;

/** The per-member approval rate (field report 000: 10 per member per minute), the same on every replica. */
public interface MemberRateLimit {

    /**
     * Takes one approval from the member's allowance; empty if allowed, else how long until the next one.
     *
     * @throws org.springframework.dao.DataAccessException when the allowance could not be read or written (it lives
     *                                                     in the database): nothing was taken
     */
    Optional<Duration> tryAcquire(MemberId member);
}

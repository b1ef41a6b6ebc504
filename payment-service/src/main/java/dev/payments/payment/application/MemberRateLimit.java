package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;

import java.time.Duration;
import java.util.Optional;

/** The per-member approval rate (field report 000: 10 per member per minute), the same on every replica. */
public interface MemberRateLimit {

    /** Takes one approval from the member's allowance; empty if allowed, else how long until the next one. */
    Optional<Duration> tryAcquire(MemberId member);
}

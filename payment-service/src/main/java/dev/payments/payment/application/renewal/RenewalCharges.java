package dev.payments.payment.application.renewal;

import dev.payments.payment.domain.renewal.RenewalCharge;
import dev.payments.payment.domain.renewal.Subscription;
import dev.payments.payment.domain.renewal.SubscriptionId;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/** The (subscription, period) charges: the renewal run's work queue. Writes join the caller's transaction. */
public interface RenewalCharges extends RenewalAttempts {

    /**
     * Records a charge for each active subscription whose next period has begun by {@code today}; a period that
     * already has its charge is left alone (the primary key), so planning twice plans nothing new.
     *
     * @return how many charges were added
     */
    int planDue(LocalDate today, Instant now);

    /**
     * Row-locks one due charge of an ACTIVE subscription no other transaction holds ({@code FOR UPDATE SKIP LOCKED})
     * for the rest of the transaction, with its subscription: concurrent runs and replicas each get a different one,
     * and a cancelled subscription is never attempted again, whatever state its periods were left in.
     */
    Optional<Claimed> claimDue(Instant now);

    /** Row-locks the subscription's charges that wait for an attempt (DUE), for the rest of the transaction. */
    List<RenewalCharge> lockDue(SubscriptionId subscriptionId);

    /** Row-locks the charge for the rest of the transaction. */
    Optional<RenewalCharge> lock(SubscriptionId subscriptionId, LocalDate period);

    void update(RenewalCharge charge);

    /** Remembers which payment an attempt made (every attempt of a period, for operators and audits). */
    void recordAttempt(RenewalCharge charge);

    /** Charges with an attempt in flight whose payment is settled by now (reconciliation, a callback, a sync). */
    List<RenewalCharge> settledInFlight(int limit);

    /** How many charges of ACTIVE subscriptions are due by {@code now}. */
    long dueCount(Instant now);

    /** A due charge and its subscription. */
    record Claimed(RenewalCharge charge, Subscription subscription) {
    }
}

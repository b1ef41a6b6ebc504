package dev.payments.payment.application.renewal;

import dev.payments.payment.domain.renewal.Subscription;
import dev.payments.payment.domain.renewal.SubscriptionId;

import java.time.LocalDate;
import java.util.Optional;

/** Where subscriptions are kept. Writes join the caller's transaction. */
public interface Subscriptions {

    void insert(Subscription subscription);

    Optional<Subscription> findById(SubscriptionId id);

    /** Row-locks the subscription for the rest of the transaction. */
    Optional<Subscription> lock(SubscriptionId id);

    /** Writes the subscription's status (the member's cancel). */
    void updateStatus(Subscription subscription);

    /** Moves the subscription past a paid period; a no-op if it already moved (a repeated settle). */
    void paidThrough(SubscriptionId id, LocalDate period);

    /** Every dunning attempt of a period was declined: no more renewals until the member acts. */
    void pastDue(SubscriptionId id);
}

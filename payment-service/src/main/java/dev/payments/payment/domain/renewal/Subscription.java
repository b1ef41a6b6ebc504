package dev.payments.payment.domain.renewal;

import dev.payments.contracts.Money;
import dev.payments.payment.domain.MemberId;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * A member's standing order to be charged {@code money} for every period (a month) from {@code nextPeriod} on, with
 * the card behind a billing key the PG issued to that member.
 *
 * @param nextPeriod the first day of the first period not yet charged; due once that day has come in the run's zone
 */
public record Subscription(SubscriptionId id, MemberId memberId, String plan, Money money, String billingKey,
                           LocalDate nextPeriod, Status status, Instant createdAt) {

    public enum Status {
        /** Renewed every period. */
        ACTIVE,
        /** Every dunning attempt of a period was declined: not charged again until the member acts. */
        PAST_DUE,
        /**
         * The member ended it: no period is planned or attempted any more, dunning included. A charge already at the
         * PG when the member cancelled settles as it will (its money, if kept, is the member's to have refunded).
         */
        CANCELED
    }

    public Subscription {
        Objects.requireNonNull(id);
        Objects.requireNonNull(memberId);
        Objects.requireNonNull(money);
        Objects.requireNonNull(nextPeriod);
        Objects.requireNonNull(status);
        Objects.requireNonNull(createdAt);
        if (plan == null || plan.isBlank()) {
            throw new IllegalArgumentException("plan must not be blank");
        }
        if (billingKey == null || billingKey.isBlank()) {
            throw new IllegalArgumentException("billing key must not be blank");
        }
    }

    public static Subscription start(SubscriptionId id, MemberId memberId, String plan, Money money, String billingKey,
                                     LocalDate firstPeriod, Instant now) {
        return new Subscription(id, memberId, plan, money, billingKey, firstPeriod, Status.ACTIVE, now);
    }

    /** The member ends the subscription; cancelling it again changes nothing. */
    public Subscription canceled() {
        return status == Status.CANCELED ? this
                : new Subscription(id, memberId, plan, money, billingKey, nextPeriod, Status.CANCELED, createdAt);
    }

    /** The period after {@code period}: subscriptions renew monthly. */
    public static LocalDate periodAfter(LocalDate period) {
        return period.plusMonths(1);
    }

    /** The PG's customer for this subscription's billing key: the member. */
    public String customerKey() {
        return memberId.value();
    }
}

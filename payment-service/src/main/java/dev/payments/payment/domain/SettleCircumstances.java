package dev.payments.payment.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * What {@link Payment#settleWith} needs to know besides the PG's status.
 *
 * @param orderPayable          whether the order can still be paid by this payment (not paid by another, not cancelled)
 * @param notFoundIsFinalAfter  a payment the PG has never seen this long after its request never will be
 * @param refundsExplainCancels every cancel the PG booked for the payment is one of our succeeded refunds, so a
 *                              PARTIAL_CANCELED or CANCELED there is what our refunds did (docs/refunds.md)
 */
public record SettleCircumstances(Instant now, boolean orderPayable, Duration notFoundIsFinalAfter,
                                  boolean refundsExplainCancels) {

    /** No cancel at the PG is one of our refunds. */
    public SettleCircumstances(Instant now, boolean orderPayable, Duration notFoundIsFinalAfter) {
        this(now, orderPayable, notFoundIsFinalAfter, false);
    }
}

package dev.payments.payment.domain;

import java.util.EnumSet;
import java.util.Set;

public enum PaymentStatus {
    /** A confirm is about to go, or went, to the PG: money may move. Never final; a stale one is settled like UNKNOWN. */
    REQUESTED,
    /** The PG approved: the customer's money moved. */
    APPROVED,
    /** The PG declined (4xx): no money moved. Final. */
    DECLINED,
    /** Known that no money moved: the PG never got the confirm, or says it aborted. Final. */
    FAILED,
    /** The PG's answer was lost: money may have moved. Reconciliation settles it with the PG. */
    UNKNOWN,
    /**
     * The PG holds money we must give back (the customer was told it failed, the order cannot be paid, the PG approved
     * after we said FAILED or DECLINED, or the member asked for a refund): a cancel at the PG is owed and retried by
     * reconciliation until the PG confirms it. Not live: the money is on its way back, so a new attempt may start.
     */
    CANCEL_OWED,
    /** Money that moved was given back by a cancel at the PG. Final. */
    CANCELED;

    private static final Set<PaymentStatus> LIVE = EnumSet.of(REQUESTED, UNKNOWN, APPROVED);

    /** Whether this payment holds, or may hold, the order's money: no second payment may start beside it. */
    public boolean isLive() {
        return LIVE.contains(this);
    }

    /** Whether nobody knows yet if money moved. */
    public boolean isUnsettled() {
        return this == REQUESTED || this == UNKNOWN;
    }
}

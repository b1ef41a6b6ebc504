package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * The matching rules of the ledger audit (docs/reconciliation.md, "Ledger audit"). Each PG approval is matched to
 * exactly one of: a PAID order with an APPROVED payment of the same amount; a renewal charge (an APPROVED payment
 * whose purpose is a subscription period: no order exists for it); a cancellation (the PG booked a CANCEL for
 * the same payment key, and our payment is CANCELED or FAILED and its order not PAID by it); an incident record; or
 * "in flight" while younger than the settle deadline or while the settler is on the payment (UNKNOWN, stale
 * REQUESTED, or CANCEL_OWED: a cancel we owe and have not had confirmed yet). Anything else is a mismatch with a reason. Consistent books win over
 * an incident (an incident whose payment was repaired since no longer explains anything); the in-flight grace never
 * excuses a wrong amount. The other direction is checked too: an approval we recorded that the PG has no transaction
 * for. The window, slice by slice, is {@link AuditWindow}; one approval's rules are {@link ApprovalMatch}.
 */
public final class LedgerAudit {

    private LedgerAudit() {
    }

    /** What a PG approval was matched to; the identity's terms. */
    public enum Match {
        /** A PAID order with an APPROVED payment of the same amount. */
        PAID,
        /**
         * An APPROVED renewal charge (a subscription period; no order exists for it) of the same amount
         * (docs/decisions/renewal-payments-downstream.md).
         */
        RENEWAL,
        /** The PG returned the money (a CANCEL for the same payment key) and our books say so. */
        CANCELLATION,
        /** An incident record accounts for it: a human is on it. */
        INCIDENT,
        /** Younger than the settle deadline, or the settler is on its payment. */
        IN_FLIGHT,
        /** Nothing accounts for it: a mismatch. */
        MISMATCH
    }

    /**
     * One PG transaction as the audit saw it: for an approval, what it was matched to (and why not, for a mismatch);
     * for a cancel, the match of the approval it returned the money of ({@code cancels}: that approval's transaction
     * key; null if the period holds no approval with its payment key).
     */
    public record Line(PgTransaction transaction, Match match, MismatchReason reason, PaymentView payment,
                       OrderView order, Incident incident, String cancels) {
    }

    public static LedgerReport audit(List<PgTransaction> transactions, LedgerBooks books, Instant from, Instant to,
                                     Instant now, Duration inFlight) {
        return audit(transactions, books, from, to, now, inFlight, line -> {
        });
    }

    /**
     * The audit of one window read whole, handing each transaction's line to {@code each} as it is matched
     * (approvals in booking order, then cancels in booking order): the finance export is the audit itself, so its
     * rows add up to the report's terms.
     */
    public static LedgerReport audit(List<PgTransaction> transactions, LedgerBooks books, Instant from, Instant to,
                                     Instant now, Duration inFlight, Consumer<Line> each) {
        AuditWindow window = new AuditWindow(from, to, now, inFlight, each);
        window.add(from, to, transactions, books);
        return window.report();
    }
}

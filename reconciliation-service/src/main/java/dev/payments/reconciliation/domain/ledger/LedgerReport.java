package dev.payments.reconciliation.domain.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The ledger identity of field report 000, per PG transaction, over a window of the PG's books:
 * {@code pgApprovals = paidOrders + renewals + cancellations + incidents + inFlight + unmatched}; it holds when nothing is
 * unmatched and none of our approvals is missing at the PG.
 *
 * @param pgApprovals   APPROVE transactions in the window
 * @param pgCancels     CANCEL transactions in the window (for information)
 * @param paidOrders    approvals matched to a PAID order with an APPROVED payment of the same amount
 * @param renewals      approvals matched to an APPROVED renewal charge (a subscription period) of the same amount
 * @param cancellations approvals whose money the PG returned and our books say so
 * @param incidents     approvals accounted for by an incident record
 * @param inFlight      approvals younger than the settle deadline that are not matched yet
 * @param mismatches    every unmatched approval, and every approval of ours the PG has no transaction for
 * @param money         the same identity in money (null for an audit stored before it was kept)
 */
public record LedgerReport(Instant auditedAt, Instant from, Instant to, long pgApprovals, long pgCancels,
                           long paidOrders, long renewals, long cancellations, long incidents, long inFlight,
                           List<LedgerMismatch> mismatches, LedgerMoney money) {

    /** A report without the identity in money (stored before it existed). */
    public LedgerReport(Instant auditedAt, Instant from, Instant to, long pgApprovals, long pgCancels, long paidOrders,
                        long renewals, long cancellations, long incidents, long inFlight,
                        List<LedgerMismatch> mismatches) {
        this(auditedAt, from, to, pgApprovals, pgCancels, paidOrders, renewals, cancellations, incidents, inFlight,
                mismatches, null);
    }

    public LedgerReport {
        Objects.requireNonNull(auditedAt, "audited at");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        mismatches = List.copyOf(mismatches);
    }

    public boolean holds() {
        return mismatches.isEmpty();
    }

    /** PG approvals that matched nothing (the rest of the mismatches are our approvals missing at the PG). */
    public long unmatchedApprovals() {
        return mismatches.stream().filter(m -> m.reason() != MismatchReason.NO_PG_APPROVAL).count();
    }
}

package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerReport;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The ledger identity with each term: {@code pgApprovals = paidOrders + renewals + cancellations + incidents +
 * inFlight + unmatched}; {@code holds} when nothing is unmatched and no approval of ours is missing at the PG.
 *
 * @param stored   whether this is a stored (regular) audit; an explicit window is an investigation, not stored
 * @param identity the identity written out with this audit's numbers
 * @param money    the identity in money (absent for an audit stored before it was kept)
 */
record LedgerResponse(Instant auditedAt, Window window, boolean stored, long pgApprovals, long pgCancels,
                      long paidOrders, long renewals, long cancellations, long incidents, long inFlight, long unmatched,
                      boolean holds, String identity, List<Mismatch> mismatches, Money money) {

    /** The terms of {@link dev.payments.reconciliation.domain.ledger.LedgerMoney}, whether it holds, written out. */
    record Money(long pgApproved, long pgRefunded, long paid, long refunded, long incidents, long inFlight,
                 long unmatched, boolean holds, String identity) {
    }

    record Window(Instant from, Instant to) {
    }

    record Mismatch(String transactionKey, String orderId, String paymentKey, UUID paymentId, long amount,
                    String currency, String reason, String detail, Instant at) {

        static Mismatch of(LedgerMismatch m) {
            return new Mismatch(m.transactionKey(), m.orderId(), m.paymentKey(),
                    m.paymentId() == null ? null : m.paymentId().value(), m.amount(), m.currency(), m.reason().name(),
                    m.detail(), m.at());
        }
    }

    static LedgerResponse of(LedgerReport r, boolean stored) {
        String identity = r.pgApprovals() + " PG approvals = " + r.paidOrders() + " PAID + " + r.renewals()
                + " renewals + " + r.cancellations()
                + " cancellations + " + r.incidents() + " incidents + " + r.inFlight() + " in flight + "
                + r.unmatchedApprovals() + " unmatched";
        return new LedgerResponse(r.auditedAt(), new Window(r.from(), r.to()), stored, r.pgApprovals(), r.pgCancels(),
                r.paidOrders(), r.renewals(), r.cancellations(), r.incidents(), r.inFlight(), r.unmatchedApprovals(), r.holds(),
                identity, r.mismatches().stream().map(Mismatch::of).toList(), r.money() == null ? null
                        : new Money(r.money().pgApproved(), r.money().pgRefunded(), r.money().ourPaid(),
                        r.money().ourRefunded(), r.money().incidents(), r.money().inFlight(), r.money().unmatched(),
                        r.money().holds(), r.money().identity()));
    }
}

package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.queries.PaymentReport;
import dev.payments.reconciliation.domain.projection.Bookkeeping;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.RefundView;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A payment as reconciliation believes it. {@code lastEventType}/{@code lastEventAt} name the event that decided the
 * status; {@code refunds} are its partial refunds as the Refund events told them, {@code refundedAmount} what the
 * SUCCEEDED ones gave back (docs/refunds.md); {@code history} lists every event seen for the payment, including late
 * ones that changed nothing.
 */
record PaymentResponse(UUID paymentId, UUID orderId, String memberId, long amount, String currency, String status,
                       String statusReason, String pgTransactionKey, Instant approvedAt, Instant canceledAt,
                       long refundedAmount, List<Refund> refunds,
                       String lastEventType, Instant lastEventAt, Instant firstSeenAt, Instant updatedAt,
                       int eventsApplied, int conflicts, List<HistoryEntry> history) {

    /** One refund: {@code pgTransactionKey} is the PG's CANCEL transaction, once SUCCEEDED. */
    record Refund(UUID refundId, long amount, String currency, RefundView.Status status, String pgTransactionKey,
                  Instant lastEventAt) {

        static Refund of(RefundView r) {
            return new Refund(r.refundId(), r.amount().amount(), r.amount().currency(), r.status(),
                    r.pgTransactionKey(), r.lastEventAt());
        }
    }

    static PaymentResponse of(PaymentReport report) {
        PaymentView p = report.payment();
        Bookkeeping b = p.bookkeeping();
        return new PaymentResponse(p.paymentId().value(), p.orderId().value(), p.memberId().value(),
                p.amount().amount(), p.amount().currency(), p.status().name(), p.statusReason(),
                p.pgTransactionKey(), p.approvedAt(), p.canceledAt(), report.refunded(),
                report.refunds().stream().map(Refund::of).toList(), b.lastEventType(), b.lastEventAt(),
                b.firstSeenAt(), b.updatedAt(), b.eventsApplied(), b.conflicts(),
                report.history().stream().map(HistoryEntry::of).toList());
    }
}

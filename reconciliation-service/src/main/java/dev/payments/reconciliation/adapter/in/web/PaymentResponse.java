package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.queries.PaymentReport;
import dev.payments.reconciliation.domain.projection.Bookkeeping;
import dev.payments.reconciliation.domain.projection.PaymentView;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A payment as reconciliation believes it. {@code lastEventType}/{@code lastEventAt} name the event that decided the
 * status; {@code history} lists every event seen for the payment, including late ones that changed nothing.
 */
record PaymentResponse(UUID paymentId, UUID orderId, String memberId, long amount, String currency, String status,
                       String statusReason, String pgTransactionKey, Instant approvedAt, Instant canceledAt,
                       String lastEventType, Instant lastEventAt, Instant firstSeenAt, Instant updatedAt,
                       int eventsApplied, int conflicts, List<HistoryEntry> history) {

    static PaymentResponse of(PaymentReport report) {
        PaymentView p = report.payment();
        Bookkeeping b = p.bookkeeping();
        return new PaymentResponse(p.paymentId().value(), p.orderId().value(), p.memberId().value(),
                p.amount().amount(), p.amount().currency(), p.status().name(), p.statusReason(),
                p.pgTransactionKey(), p.approvedAt(), p.canceledAt(), b.lastEventType(), b.lastEventAt(),
                b.firstSeenAt(), b.updatedAt(), b.eventsApplied(), b.conflicts(),
                report.history().stream().map(HistoryEntry::of).toList());
    }
}

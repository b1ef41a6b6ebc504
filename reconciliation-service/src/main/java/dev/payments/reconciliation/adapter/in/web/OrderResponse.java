package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.queries.OrderReport;
import dev.payments.reconciliation.domain.projection.Bookkeeping;
import dev.payments.reconciliation.domain.projection.OrderDetails;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import io.swagger.v3.oas.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An order as reconciliation believes it, with its payments. {@code status} is null while only payment events of the
 * order have been seen; member, amount and name are null until {@code OrderCreated} has been seen;
 * {@code refundedAmount} is what the order's events say was given back (the refunds' total, the whole amount once
 * CANCELED).
 */
record OrderResponse(UUID orderId,
                     @Schema(allowableValues = {"CREATED", "PAYMENT_PENDING", "PAID", "FAILED", "PARTIALLY_REFUNDED",
                             "REFUNDED", "CANCELED"}) String status,
                     String statusReason, String memberId, Long amount, String currency,
                     String orderName, UUID paymentId, long refundedAmount, String lastEventType, Instant lastEventAt, Instant firstSeenAt,
                     Instant updatedAt, int eventsApplied, int conflicts, List<Payment> payments,
                     List<HistoryEntry> history) {

    record Payment(UUID paymentId, String status, long amount, String currency, String pgTransactionKey,
                   String lastEventType, Instant lastEventAt) {

        static Payment of(PaymentView p) {
            return new Payment(p.paymentId().value(), p.status().name(), p.amount().amount(), p.amount().currency(),
                    p.pgTransactionKey(), p.bookkeeping().lastEventType(), p.bookkeeping().lastEventAt());
        }
    }

    static OrderResponse of(OrderReport report) {
        List<Payment> payments = report.payments().stream().map(Payment::of).toList();
        List<HistoryEntry> history = report.history().stream().map(HistoryEntry::of).toList();
        if (report.order().isEmpty()) {
            return new OrderResponse(report.orderId().value(), null, null, null, null, null, null, null, 0, null, null,
                    null, null, 0, 0, payments, history);
        }
        OrderView o = report.order().get();
        OrderDetails d = o.details();
        Bookkeeping b = o.bookkeeping();
        return new OrderResponse(o.orderId().value(), o.status().name(), o.statusReason(),
                d == null ? null : d.memberId().value(), d == null ? null : d.amount().amount(),
                d == null ? null : d.amount().currency(), d == null ? null : d.orderName(),
                o.paymentId() == null ? null : o.paymentId().value(), o.refundedAmount(), b.lastEventType(), b.lastEventAt(),
                b.firstSeenAt(), b.updatedAt(), b.eventsApplied(), b.conflicts(), payments, history);
    }
}

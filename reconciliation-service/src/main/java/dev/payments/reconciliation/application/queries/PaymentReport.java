package dev.payments.reconciliation.application.queries;

import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.ProjectedEvent;
import dev.payments.reconciliation.domain.projection.RefundView;

import java.util.List;

/** A payment as reconciliation believes it, with its refunds and the events that made it so. */
public record PaymentReport(PaymentView payment, List<RefundView> refunds, List<ProjectedEvent> history) {

    public PaymentReport {
        refunds = List.copyOf(refunds);
        history = List.copyOf(history);
    }

    /** What the payment's SUCCEEDED refunds gave back. */
    public long refunded() {
        return refunds.stream().filter(r -> r.status() == RefundView.Status.SUCCEEDED)
                .mapToLong(r -> r.amount().amount()).sum();
    }
}

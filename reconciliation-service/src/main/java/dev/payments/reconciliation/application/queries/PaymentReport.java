package dev.payments.reconciliation.application.queries;

import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.ProjectedEvent;

import java.util.List;

/** A payment as reconciliation believes it, with the events that made it so. */
public record PaymentReport(PaymentView payment, List<ProjectedEvent> history) {

    public PaymentReport {
        history = List.copyOf(history);
    }
}

package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.PaymentView;
import dev.payments.reconciliation.domain.ProjectedEvent;

import java.util.List;

/** A payment as reconciliation believes it, with the events that made it so. */
public record PaymentReport(PaymentView payment, List<ProjectedEvent> history) {

    public PaymentReport {
        history = List.copyOf(history);
    }
}

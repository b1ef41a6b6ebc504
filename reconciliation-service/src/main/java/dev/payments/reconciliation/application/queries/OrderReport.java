package dev.payments.reconciliation.application.queries;

import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.ProjectedEvent;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.util.List;
import java.util.Optional;

/**
 * An order as reconciliation believes it: the order's own view, if any order event has been seen, and its payments,
 * which may be known before the order (the topics are independent).
 */
public record OrderReport(OrderId orderId, Optional<OrderView> order, List<PaymentView> payments,
                          List<ProjectedEvent> history) {

    public OrderReport {
        payments = List.copyOf(payments);
        history = List.copyOf(history);
    }
}

package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.OrderId;
import dev.payments.reconciliation.domain.OrderView;
import dev.payments.reconciliation.domain.PaymentView;
import dev.payments.reconciliation.domain.ProjectedEvent;

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

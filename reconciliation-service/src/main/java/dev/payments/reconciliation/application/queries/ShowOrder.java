package dev.payments.reconciliation.application.queries;

import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.util.List;
import java.util.Optional;

/** What reconciliation believes happened to one order and its payments. */
public final class ShowOrder {

    private final OrderViews orders;
    private final PaymentViews payments;
    private final EventHistory history;

    public ShowOrder(OrderViews orders, PaymentViews payments, EventHistory history) {
        this.orders = orders;
        this.payments = payments;
        this.history = history;
    }

    /** Empty if no event of the order or of any of its payments has been seen. */
    public Optional<OrderReport> show(OrderId orderId) {
        Optional<OrderView> order = orders.find(orderId);
        List<PaymentView> orderPayments = payments.byOrder(orderId);
        if (order.isEmpty() && orderPayments.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new OrderReport(orderId, order, orderPayments, history.ofOrder(orderId)));
    }
}

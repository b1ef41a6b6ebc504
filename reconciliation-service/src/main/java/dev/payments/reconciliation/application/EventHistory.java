package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.OrderId;
import dev.payments.reconciliation.domain.PaymentId;
import dev.payments.reconciliation.domain.ProjectedEvent;

import java.util.List;

/** The append-only history of projected events (port). */
public interface EventHistory {

    void append(ProjectedEvent event);

    /** The payment's own events (not the order events that name it), in the order they occurred. */
    List<ProjectedEvent> ofPayment(PaymentId paymentId);

    /** Events of the order and of all its payments, in the order they occurred. */
    List<ProjectedEvent> ofOrder(OrderId orderId);
}

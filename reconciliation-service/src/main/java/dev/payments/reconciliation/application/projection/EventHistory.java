package dev.payments.reconciliation.application.projection;

import dev.payments.reconciliation.domain.projection.ProjectedEvent;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.List;

/** The append-only history of projected events (port). */
public interface EventHistory {

    void append(ProjectedEvent event);

    /** The payment's own events (not the order events that name it), in the order they occurred. */
    List<ProjectedEvent> ofPayment(PaymentId paymentId);

    /** Events of the order and of all its payments, in the order they occurred. */
    List<ProjectedEvent> ofOrder(OrderId orderId);
}

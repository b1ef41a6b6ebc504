package dev.payments.payment.application;

import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PayableOrder;

import java.util.Optional;

/** payment-service's local view of orders, fed by {@code order.events}. */
public interface PayableOrders {

    /** Reads and row-locks the order, so two confirms for one order are checked one after the other. */
    Optional<PayableOrder> lock(OrderId orderId);

    Optional<PayableOrder> find(OrderId orderId);

    void save(PayableOrder order);
}

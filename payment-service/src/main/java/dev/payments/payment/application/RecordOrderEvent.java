package dev.payments.payment.application;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.Money;
import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PayableOrder;

/** Keeps the payable-order view in step with {@code order.events}; runs inside the inbox's transaction. */
public class RecordOrderEvent {

    private final PayableOrders orders;

    public RecordOrderEvent(PayableOrders orders) {
        this.orders = orders;
    }

    /**
     * Whether an order event changes the view: {@code OrderPaymentPending} does not (payment-service started that
     * payment itself), so it is passed over without an inbox row.
     */
    public static boolean concerns(DomainEvent event) {
        return !(event instanceof OrderPaymentPending);
    }

    public void on(DomainEvent event) {
        if (event instanceof OrderCreated created) {
            OrderId id = new OrderId(created.orderId());
            if (orders.find(id).isEmpty()) {
                orders.save(new PayableOrder(id, new MemberId(created.memberId()),
                        new Money(created.amount(), created.currency()), PayableOrder.Status.OPEN));
            }
        } else if (event instanceof OrderPaid paid) {
            setStatus(new OrderId(paid.orderId()), PayableOrder.Status.PAID);
        } else if (event instanceof OrderFailed failed) {
            // A failed attempt leaves the order payable: the customer may try another card.
            setStatus(new OrderId(failed.orderId()), PayableOrder.Status.OPEN);
        } else if (event instanceof OrderCanceled canceled) {
            setStatus(new OrderId(canceled.orderId()), PayableOrder.Status.CANCELED);
        }
    }

    private void setStatus(OrderId id, PayableOrder.Status status) {
        PayableOrder order = orders.find(id).orElseThrow(() -> new IllegalStateException(
                "Order event for " + id + " before its OrderCreated; same key, same partition: this should not happen"));
        if (order.status() != PayableOrder.Status.CANCELED) {
            orders.save(new PayableOrder(order.orderId(), order.memberId(), order.money(), status));
        }
    }
}

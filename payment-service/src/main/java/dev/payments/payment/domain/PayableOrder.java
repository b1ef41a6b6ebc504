package dev.payments.payment.domain;

import dev.payments.contracts.Money;

/**
 * payment-service's view of an order, built from {@code order.events}: enough to check a confirm against it without
 * calling order-service on the request path.
 */
public record PayableOrder(OrderId orderId, MemberId memberId, Money money, Status status) {

    public enum Status {
        /** Can be paid (new, or an earlier attempt failed). */
        OPEN,
        /** Paid; a further confirm is a conflict. */
        PAID,
        /** Cancelled after payment; never payable again. */
        CANCELED
    }

    public boolean isPayable() {
        return status == Status.OPEN;
    }
}

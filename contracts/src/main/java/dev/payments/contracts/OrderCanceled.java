package dev.payments.contracts;

import java.util.UUID;

/** A paid order was cancelled; its payment was refunded at the PG. */
public record OrderCanceled(UUID orderId, UUID paymentId, String reason) implements OrderEvent {
}

package dev.payments.contracts;

import java.util.UUID;

/** A payment attempt for the order started; the order waits for its outcome. */
public record OrderPaymentPending(UUID orderId, UUID paymentId) implements OrderEvent {
}

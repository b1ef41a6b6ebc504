package dev.payments.contracts;

import java.util.UUID;

/** The order's payment ended without money moving (declined, failed, or cancelled at the PG before approval). */
public record OrderFailed(UUID orderId, UUID paymentId, String reason) implements OrderEvent {
}

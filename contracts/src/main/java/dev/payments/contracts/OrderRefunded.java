package dev.payments.contracts;

import java.util.UUID;

/**
 * A paid order's price was given back in full by refunds ({@code refundedAmount} is the whole price); the payment
 * itself stays approved with nothing left to refund. Unlike {@link OrderCanceled}, no cancel of the whole payment was
 * involved. Final.
 */
public record OrderRefunded(UUID orderId, UUID paymentId, long refundedAmount, String currency) implements OrderEvent {
}

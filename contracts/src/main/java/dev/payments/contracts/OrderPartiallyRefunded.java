package dev.payments.contracts;

import java.util.UUID;

/**
 * Part of a paid order's price was given back: its payment's succeeded refunds now add up to {@code refundedAmount},
 * less than {@code orderAmount}. Published again each time a further refund grows the total. Amounts are in the
 * currency's minor unit.
 */
public record OrderPartiallyRefunded(UUID orderId, UUID paymentId, long refundedAmount, long orderAmount,
                                     String currency) implements OrderEvent {
}

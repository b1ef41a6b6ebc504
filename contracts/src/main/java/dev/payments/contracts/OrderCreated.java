package dev.payments.contracts;

import java.util.UUID;

/** A member placed an order; it can now be paid. Amounts are in the currency's minor unit. */
public record OrderCreated(UUID orderId, String memberId, long amount, String currency, String orderName)
        implements OrderEvent {
}

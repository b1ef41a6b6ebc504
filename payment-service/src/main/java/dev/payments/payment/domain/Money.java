package dev.payments.payment.domain;

import java.util.Objects;

/** An amount in the currency's minor unit (KRW has none). */
public record Money(long amount, String currency) {

    public Money {
        Objects.requireNonNull(currency, "currency");
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + amount);
        }
    }
}

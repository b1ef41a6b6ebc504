package dev.payments.notification.domain;

import java.util.Objects;

/** An amount in the currency's minor unit (KRW has none), as the payment event stated it. */
public record Money(long amount, String currency) {

    public Money {
        Objects.requireNonNull(currency, "currency");
    }

    @Override
    public String toString() {
        return amount + " " + currency;
    }
}

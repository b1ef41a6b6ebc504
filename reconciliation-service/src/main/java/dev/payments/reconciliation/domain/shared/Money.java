package dev.payments.reconciliation.domain.shared;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An amount in the currency's minor unit (KRW has none, so 15000 is 15,000 won).
 *
 * @param amount   minor units, never negative
 * @param currency ISO 4217 code
 */
public record Money(long amount, String currency) {

    private static final Pattern ISO_4217 = Pattern.compile("[A-Z]{3}");

    public Money {
        Objects.requireNonNull(currency, "currency");
        if (amount < 0) {
            throw new IllegalArgumentException("negative amount " + amount);
        }
        if (!ISO_4217.matcher(currency).matches()) {
            throw new IllegalArgumentException("not an ISO 4217 currency code: " + currency);
        }
    }

    @Override
    public String toString() {
        return amount + " " + currency;
    }
}

package dev.payments.contracts;

import java.util.Currency;
import java.util.Objects;

/**
 * A positive amount in the currency's minor unit (KRW has none, so 15000 is 15,000 won), in an ISO 4217 currency.
 * Every amount the services hold is an order's price or a charge or refund of it, so zero, a negative amount or an
 * unknown currency is a defect, refused where it arrives (docs/architecture.md, "Money"). One record for every
 * service: the rule is the house's, not a context's.
 *
 * @param amount   minor units, above zero
 * @param currency ISO 4217 code known to the JDK, e.g. {@code KRW}
 * @throws IllegalArgumentException for a value that is not money; a caller that takes it from a person answers 400
 */
public record Money(long amount, String currency) {

    public Money {
        Objects.requireNonNull(currency, "currency");
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + amount);
        }
        if (!isIsoCurrency(currency)) {
            throw new IllegalArgumentException("currency must be an ISO 4217 code: " + currency);
        }
    }

    private static boolean isIsoCurrency(String code) {
        if (!code.matches("[A-Z]{3}")) {
            return false;
        }
        try {
            Currency.getInstance(code);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return amount + " " + currency;
    }
}

package dev.payments.contracts;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The house's one Money rule (docs/architecture.md, "Money"), held against every service's own copy: a positive
 * amount in an ISO 4217 currency the JDK knows. A service's MoneyTest says how its copy is built and what it throws.
 *
 * @param <M> the service's Money
 */
public abstract class MoneyRuleContract<M> {

    protected abstract M money(long amount, String currency);

    protected abstract long amountOf(M money);

    protected abstract String currencyOf(M money);

    /** What the copy throws for a value that is not money (its context's own invalid-input exception). */
    protected abstract Class<? extends RuntimeException> refusal();

    @Test
    void aPositiveAmountInAnIsoCurrencyIsMoney() {
        assertThat(amountOf(money(15_000, "KRW"))).isEqualTo(15_000);
        assertThat(currencyOf(money(1, "USD"))).isEqualTo("USD");
    }

    @Test
    void zeroOrANegativeAmountIsNot() {
        assertThatThrownBy(() -> money(0, "KRW")).isInstanceOf(refusal());
        assertThatThrownBy(() -> money(-1, "KRW")).isInstanceOf(refusal());
    }

    @Test
    void norIsACurrencyTheJdkDoesNotKnow() {
        assertThatThrownBy(() -> money(1, "krw")).isInstanceOf(refusal());
        assertThatThrownBy(() -> money(1, "XYZ")).isInstanceOf(refusal());
        assertThatThrownBy(() -> money(1, "KRWW")).isInstanceOf(refusal());
        assertThatThrownBy(() -> money(1, null)).isInstanceOf(NullPointerException.class);
    }
}

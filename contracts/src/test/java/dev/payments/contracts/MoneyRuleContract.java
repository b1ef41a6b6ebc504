package dev.payments.contracts;

import org.junit.jupiter.api.Test;

import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The house's one Money rule (docs/architecture.md, "Money"), held against every service's own copy: a positive
 * amount in an ISO 4217 currency the JDK knows. A service's MoneyTest hands it its copy's constructor, accessors and refusal.
 *
 * @param <M> the service's Money
 */
public abstract class MoneyRuleContract<M> {

    private final BiFunction<Long, String, M> money;
    private final ToLongFunction<M> amountOf;
    private final Function<M, String> currencyOf;
    private final Class<? extends RuntimeException> refusal;

    /**
     * @param refusal what the copy throws for a value that is not money (its context's own invalid-input exception)
     */
    protected MoneyRuleContract(BiFunction<Long, String, M> money, ToLongFunction<M> amountOf,
                                Function<M, String> currencyOf, Class<? extends RuntimeException> refusal) {
        this.money = money;
        this.amountOf = amountOf;
        this.currencyOf = currencyOf;
        this.refusal = refusal;
    }

    private M money(long amount, String currency) {
        return money.apply(amount, currency);
    }

    @Test
    void aPositiveAmountInAnIsoCurrencyIsMoney() {
        assertThat(amountOf.applyAsLong(money(15_000, "KRW"))).isEqualTo(15_000);
        assertThat(currencyOf.apply(money(1, "USD"))).isEqualTo("USD");
    }

    @Test
    void zeroOrANegativeAmountIsNot() {
        assertThatThrownBy(() -> money(0, "KRW")).isInstanceOf(refusal);
        assertThatThrownBy(() -> money(-1, "KRW")).isInstanceOf(refusal);
    }

    @Test
    void norIsACurrencyTheJdkDoesNotKnow() {
        assertThatThrownBy(() -> money(1, "krw")).isInstanceOf(refusal);
        assertThatThrownBy(() -> money(1, "XYZ")).isInstanceOf(refusal);
        assertThatThrownBy(() -> money(1, "KRWW")).isInstanceOf(refusal);
        assertThatThrownBy(() -> money(1, null)).isInstanceOf(NullPointerException.class);
    }
}

package dev.payments.contracts;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The house's one Money rule (docs/architecture.md, "Money"): a positive amount in an ISO 4217 currency the JDK knows. */
class MoneyTest {

    @Test
    void aPositiveAmountInAnIsoCurrencyIsMoney() {
        assertThat(new Money(15_000, "KRW").amount()).isEqualTo(15_000);
        assertThat(new Money(1, "USD").currency()).isEqualTo("USD");
    }

    @Test
    void zeroOrANegativeAmountIsNot() {
        assertThatThrownBy(() -> new Money(0, "KRW")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Money(-1, "KRW")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void norIsACurrencyTheJdkDoesNotKnow() {
        assertThatThrownBy(() -> new Money(1, "krw")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Money(1, "XYZ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Money(1, "KRWW")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Money(1, null)).isInstanceOf(NullPointerException.class);
    }
}

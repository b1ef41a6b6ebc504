package dev.payments.reconciliation.domain.settling;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackoffTest {

    private final Backoff defaults = new Backoff(Duration.ofSeconds(5), 2.0, Duration.ofSeconds(20));

    @Test
    void doublesFromTheInitialWaitUpToTheCap() {
        assertThat(defaults.delay(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.delay(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.delay(3)).isEqualTo(Duration.ofSeconds(20));
        assertThat(defaults.delay(4)).isEqualTo(Duration.ofSeconds(20));
        assertThat(defaults.delay(1_000)).as("no overflow far out").isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aMultiplierOfOneIsAFixedInterval() {
        Backoff fixed = new Backoff(Duration.ofSeconds(3), 1.0, Duration.ofSeconds(3));
        assertThat(fixed.delay(1)).isEqualTo(fixed.delay(7)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void nonsenseIsRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, 2, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(10), 2, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.delay(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

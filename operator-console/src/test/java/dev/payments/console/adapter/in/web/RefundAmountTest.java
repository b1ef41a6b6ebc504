package dev.payments.console.adapter.in.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RefundAmountTest {

    @Test
    void anAmountIsAWholeNumberAboveZeroWithinPaymentServicesBound() {
        assertThat(PaymentsController.amount(" 4000 ")).isEqualTo(4_000L);
        assertThat(PaymentsController.amount("1000000000")).isEqualTo(1_000_000_000L);
    }

    @Test
    void anythingElseIsRefusedBeforeAnyCall() {
        for (String bad : new String[]{null, "", "0", "-5", "12.5", "1e3", "1000000001", "99999999999999999999", "4000 KRW"}) {
            assertThatThrownBy(() -> PaymentsController.amount(bad)).as(String.valueOf(bad))
                    .isInstanceOf(Pages.BadInput.class).hasMessage("An amount must be a whole number from 1 to 1000000000");
        }
    }
}

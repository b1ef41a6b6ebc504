package dev.payments.console.adapter.in.web;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaymentFilterTest {

    @Test
    void blankFiltersAreLeftOutAndTheOthersAreNormalised() {
        Map<String, String> filter = PaymentsController.filter(Map.of(
                "paymentId", " ", "orderId", " 0B6F7C1E-6A0E-4D6C-9D55-6A3B1C2D3E4F ", "memberId", "member-7",
                "status", "UNKNOWN", "from", "2026-12-05T07:00", "to", "2026-12-05T08:00:00Z", "after", "cursor"));

        assertThat(filter).containsExactly(
                Map.entry("orderId", "0b6f7c1e-6a0e-4d6c-9d55-6a3b1c2d3e4f"),
                Map.entry("memberId", "member-7"),
                Map.entry("status", "UNKNOWN"),
                Map.entry("from", "2026-12-05T07:00:00Z"),
                Map.entry("to", "2026-12-05T08:00:00Z"));
    }

    @Test
    void badFiltersAreRefusedBeforeAnyCall() {
        assertThatThrownBy(() -> PaymentsController.filter(Map.of("status", "PAID")))
                .isInstanceOf(Pages.BadInput.class).hasMessageContaining("Status must be one of");
        assertThatThrownBy(() -> PaymentsController.filter(Map.of("from", "yesterday")))
                .hasMessageContaining("From must be a time");
        assertThatThrownBy(() -> PaymentsController.filter(Map.of("memberId", "a\r\nforged")))
                .hasMessageContaining("Member id must be printable");
        assertThatThrownBy(() -> PaymentsController.filter(Map.of("paymentId", "1 OR 1=1")))
                .hasMessage("Payment id must be a UUID");
    }
}

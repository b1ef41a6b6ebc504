package dev.payments.console.adapter.in.web;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PagesTest {

    @Test
    void anIdIsAUuidOrAClearRefusal() {
        assertThat(Pages.id(" 0b6f7c1e-6a0e-4d6c-9d55-6a3b1c2d3e4f ", "Payment id").toString())
                .isEqualTo("0b6f7c1e-6a0e-4d6c-9d55-6a3b1c2d3e4f");
        assertThatThrownBy(() -> Pages.id("../admin", "Payment id")).isInstanceOf(Pages.BadInput.class)
                .hasMessage("Payment id must be a UUID");
    }

    @Test
    void aRequiredCommentIsPresentOneLineAndBounded() {
        assertThat(Pages.requiredText("  refunded in the PG console ", "A comment")).isEqualTo("refunded in the PG console");
        assertThatThrownBy(() -> Pages.requiredText("   ", "A comment")).hasMessage("A comment is required");
        assertThatThrownBy(() -> Pages.requiredText(null, "A comment")).hasMessage("A comment is required");
        assertThatThrownBy(() -> Pages.requiredText("line\nforged log line", "A comment"))
                .hasMessageContaining("one line");
        assertThatThrownBy(() -> Pages.requiredText("x".repeat(Pages.MAX_TEXT + 1), "A comment"))
                .hasMessageContaining("at most 2000");
    }

    @Test
    void actionsAreShownOnlyForTheScopesTheTokenCarries() {
        Operator viewer = new Operator("viewer-1", Set.of("openid", "reconciliation:read"));
        Operator member = new Operator("member-1", Set.of("openid"));

        assertThat(viewer.isOperator()).isTrue();
        assertThat(viewer.may(Operator.SYNC)).isFalse();
        assertThat(viewer.may(Operator.INCIDENTS)).isFalse();
        assertThat(member.isOperator()).isFalse();
    }

    @Test
    void agesReadAtAGlance() {
        assertThat(Ages.of(Duration.ofSeconds(42))).isEqualTo("42 s");
        assertThat(Ages.of(Duration.ofMinutes(7))).isEqualTo("7 min");
        assertThat(Ages.of(Duration.ofMinutes(185))).isEqualTo("3 h 5 min");
        assertThat(Ages.of(Duration.ofHours(52))).isEqualTo("2 d 4 h");
        assertThat(Ages.of(Duration.ofSeconds(-3))).as("a clock skew is no negative age").isEqualTo("0 s");
    }
}

package dev.payments.payment.adapter.in.web;

import dev.payments.support.web.InputRules;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** A refund of part (or all) of a payment; an operator's must say why. */
record RefundRequest(@Schema(example = "4000", description = "How much to give back; at most what is left to refund")
                     @NotNull @Positive @Max(InputRules.MAX_AMOUNT) Long amount,
                     @Schema(example = "one item returned", description = "Why; required from an operator")
                     @Size(max = 150)
                     @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE)
                     String reason) {
}

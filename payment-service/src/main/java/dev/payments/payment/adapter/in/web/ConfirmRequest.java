package dev.payments.payment.adapter.in.web;

import dev.payments.support.web.InputRules;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import java.util.UUID;

record ConfirmRequest(@Schema(example = "0b5f8a3e-6c1d-4f7a-9a55-2d3c4b5a6f70") @NotNull UUID orderId,
                      @Schema(example = "pk_0001", description = "The PG's key from the checkout")
                      @NotBlank @Size(max = 200)
                      @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE)
                      String paymentKey,
                      @Schema(example = "15000", description = "Must equal the order's amount") @NotNull @Positive
                      @Max(InputRules.MAX_AMOUNT) Long amount) {
}

package dev.payments.order.adapter.in.web;

import dev.payments.support.web.InputRules;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/orders}; {@code amount} in the currency's minor unit. The member is the token's subject: a
 * {@code memberId} sent here is ignored like any unknown field.
 */
record PlaceOrderRequest(
        @Schema(example = "15000", description = "In the currency's minor unit") @NotNull @Positive
        @Max(InputRules.MAX_AMOUNT) Long amount,
        @Schema(example = "KRW") @NotNull @Pattern(regexp = InputRules.PG_CURRENCIES,
                message = "must be a currency the PG accepts: " + InputRules.PG_CURRENCIES) String currency,
        @Schema(example = "Annual plan") @NotBlank @Size(max = 200) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS,
                message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String orderName) {
}

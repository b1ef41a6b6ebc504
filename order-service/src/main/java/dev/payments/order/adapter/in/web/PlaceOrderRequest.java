package dev.payments.order.adapter.in.web;

import io.swagger.v3.oas.annotations.media.Schema;
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
        @Schema(example = "15000", description = "In the currency's minor unit") @NotNull @Positive Long amount,
        @Schema(example = "KRW") @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as KRW")
        String currency,
        @Schema(example = "Annual plan") @NotBlank @Size(max = 200) String orderName) {
}

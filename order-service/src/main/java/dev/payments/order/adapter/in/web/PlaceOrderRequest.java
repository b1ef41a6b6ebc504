package dev.payments.order.adapter.in.web;

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
        @NotNull @Positive Long amount,
        @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as KRW") String currency,
        @NotBlank @Size(max = 200) String orderName) {
}

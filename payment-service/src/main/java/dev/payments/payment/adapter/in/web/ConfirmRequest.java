package dev.payments.payment.adapter.in.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import java.util.UUID;

record ConfirmRequest(@NotNull UUID orderId,
                      @NotBlank @Size(max = 200) String paymentKey,
                      @NotNull @Positive Long amount) {
}

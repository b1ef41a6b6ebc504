package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.AttemptResult;
import dev.payments.reconciliation.domain.settling.SettleTrigger;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Duration;
import java.time.Instant;

/**
 * One sync call the settler made, as kept in the append-only attempt history.
 *
 * @param paymentStatus the payment after the call, when payment-service answered
 */
public record SettleAttempt(PaymentId paymentId, Instant attemptedAt, SettleTrigger trigger, AttemptResult result,
                            PaymentStatus paymentStatus, String pgState, String action, String detail, Duration took) {
}

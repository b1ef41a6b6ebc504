package dev.payments.drills.baseline;

/** Published inside the transaction that saves an approved payment; {@link NotificationListener} acts on it. */
public record PaymentCompleted(String orderId) {
}

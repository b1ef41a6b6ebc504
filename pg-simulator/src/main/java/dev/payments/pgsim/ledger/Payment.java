package dev.payments.pgsim.ledger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A payment as the PG sees it: an immutable snapshot. Transitions return a new snapshot and
 * check the current state, so the ledger can never approve or cancel twice by accident.
 */
public record Payment(
        String paymentKey,
        String orderId,
        long totalAmount,
        PaymentStatus status,
        Instant requestedAt,
        Instant approvedAt,
        String lastTransactionKey,
        List<Cancel> cancels,
        Failure failure) {

    public Payment {
        Objects.requireNonNull(paymentKey, "paymentKey");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(requestedAt, "requestedAt");
        cancels = List.copyOf(cancels);
    }

    static Payment inProgress(String paymentKey, String orderId, long amount, Instant at) {
        return new Payment(paymentKey, orderId, amount, PaymentStatus.IN_PROGRESS, at, null, null, List.of(), null);
    }

    /** What is left to cancel; 0 once cancelled. */
    public long balanceAmount() {
        return totalAmount - cancels.stream().mapToLong(Cancel::cancelAmount).sum();
    }

    /** True once money has moved for this payment (approved, possibly refunded since). */
    public boolean movedMoney() {
        return status == PaymentStatus.DONE || status == PaymentStatus.PARTIAL_CANCELED
                || status == PaymentStatus.CANCELED;
    }

    /** Money is still held and can be given back, in whole or in part. */
    public boolean cancelable() {
        return status == PaymentStatus.DONE || status == PaymentStatus.PARTIAL_CANCELED;
    }

    /** The cancel booked under this Idempotency-Key, if any. */
    public java.util.Optional<Cancel> cancelWithKey(String idempotencyKey) {
        return idempotencyKey == null ? java.util.Optional.empty()
                : cancels.stream().filter(c -> idempotencyKey.equals(c.idempotencyKey())).findFirst();
    }

    Payment approve(String transactionKey, Instant at) {
        requireStatus(PaymentStatus.IN_PROGRESS);
        return new Payment(paymentKey, orderId, totalAmount, PaymentStatus.DONE, requestedAt, at, transactionKey, cancels, null);
    }

    Payment abort(DeclineReason reason) {
        requireStatus(PaymentStatus.IN_PROGRESS);
        return new Payment(paymentKey, orderId, totalAmount, PaymentStatus.ABORTED, requestedAt, null, null, cancels,
                Failure.of(reason));
    }

    /** Gives back {@code amount} (at most the balance): CANCELED when nothing is left, else PARTIAL_CANCELED. */
    Payment cancel(String transactionKey, String reason, long amount, String idempotencyKey, Instant at) {
        if (!cancelable()) {
            throw new IllegalStateException("payment " + paymentKey + " is " + status + ", expected DONE or PARTIAL_CANCELED");
        }
        if (amount <= 0 || amount > balanceAmount()) {
            throw new IllegalArgumentException("cannot cancel " + amount + " of a balance of " + balanceAmount());
        }
        long left = balanceAmount() - amount;
        List<Cancel> withCancel = new ArrayList<>(cancels);
        withCancel.add(new Cancel(amount, at, transactionKey, reason, left, idempotencyKey));
        PaymentStatus next = left == 0 ? PaymentStatus.CANCELED : PaymentStatus.PARTIAL_CANCELED;
        return new Payment(paymentKey, orderId, totalAmount, next, requestedAt, approvedAt, transactionKey, withCancel, null);
    }

    private void requireStatus(PaymentStatus expected) {
        if (status != expected) {
            throw new IllegalStateException("payment " + paymentKey + " is " + status + ", expected " + expected);
        }
    }
}

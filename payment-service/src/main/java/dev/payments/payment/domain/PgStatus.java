package dev.payments.payment.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the PG says about one payment: its state and the identity of what it approved. The identity is checked against
 * ours before any of it is believed: an approval of another amount, order or payment key is
 * not an approval of our payment.
 *
 * @param amount         the PG's {@code totalAmount}; null when NOT_FOUND
 * @param transactionKey the PG's {@code lastTransactionKey}: the approval's when DONE, the cancel's when CANCELED
 * @param cancels        the PG's {@code cancels[]}: every cancel, whole or partial, booked for the payment
 */
public record PgStatus(PgState state, String paymentKey, String orderId, Long amount, String transactionKey,
                       Instant approvedAt, List<PgCancel> cancels) {

    public PgStatus {
        Objects.requireNonNull(state, "state");
        cancels = cancels == null ? List.of() : List.copyOf(cancels);
    }

    /** A status with no cancels on the PG's books. */
    public PgStatus(PgState state, String paymentKey, String orderId, Long amount, String transactionKey,
                    Instant approvedAt) {
        this(state, paymentKey, orderId, amount, transactionKey, approvedAt, List.of());
    }

    public static PgStatus notFound() {
        return new PgStatus(PgState.NOT_FOUND, null, null, null, null, null);
    }

    /** The PG's cancel that is this refund's: its reason names the refund ({@link Refund#pgCancelReason}). */
    public Optional<PgCancel> cancelOf(RefundId refund) {
        String mark = Refund.pgReasonMark(refund);
        return cancels.stream().filter(c -> c.reason() != null && c.reason().startsWith(mark)).findFirst();
    }

    /** Why this answer is not about {@code payment}, or empty when key, order and amount are ours. */
    public Optional<String> mismatchWith(Payment payment) {
        if (state == PgState.NOT_FOUND) {
            return Optional.empty();
        }
        if (!payment.paymentKey().equals(paymentKey)) {
            return Optional.of(Payment.PG_KEY_MISMATCH);
        }
        if (!payment.orderId().toString().equals(orderId)) {
            return Optional.of(Payment.PG_ORDER_MISMATCH);
        }
        if (amount == null || amount != payment.money().amount()) {
            return Optional.of(Payment.PG_AMOUNT_MISMATCH);
        }
        return Optional.empty();
    }
}

package dev.payments.payment.application;

import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;

import java.util.Optional;

/** Where payments are kept. Writes join the caller's transaction. */
public interface Payments {

    void insert(Payment payment);

    void update(Payment payment);

    Optional<Payment> findById(PaymentId id);

    /** Reads and row-locks the payment for the rest of the transaction. */
    Optional<Payment> lockById(PaymentId id);

    /** Whether the order has a payment that holds, or may hold, its money. */
    boolean hasLivePayment(OrderId orderId);

    Optional<Payment> findLatestByOrder(OrderId orderId);

    /**
     * Whether an earlier payment of ours holds this PG payment key: any that may have reached the PG (all but those
     * FAILED because the confirm never left us or our credentials were refused).
     */
    boolean paymentKeyInUse(String paymentKey);

    /** Our newest payment confirmed with this PG payment key. */
    Optional<Payment> findLatestByPaymentKey(String paymentKey);
}

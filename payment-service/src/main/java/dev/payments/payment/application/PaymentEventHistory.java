package dev.payments.payment.application;

import dev.payments.payment.domain.PaymentId;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The events a payment has published, kept for a while by the outbox, which can be published again (port). */
public interface PaymentEventHistory {

    /**
     * Publishes the payment's events again, in the current transaction, each with its own id and in the order they
     * were written; consumers skip what they applied. Only events written from {@code since} on and still kept.
     */
    List<Resent> resend(PaymentId payment, Instant since);

    /** An event published again. */
    record Resent(UUID eventId, String type) {
    }
}

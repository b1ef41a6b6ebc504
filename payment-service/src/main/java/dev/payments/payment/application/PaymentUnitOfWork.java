package dev.payments.payment.application;

import dev.payments.payment.domain.Payment;
import dev.payments.contracts.PaymentEvent;
import dev.payments.payment.domain.PaymentId;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;
import java.util.function.Function;

/**
 * The one way a payment changes once it exists: lock its row, let the aggregate decide, append the event it recorded
 * to the outbox, update the row, all in one transaction (the caller's, if one is open). Every writer of a payment after
 * TX-1 (the confirm's and the renewal's TX-2, the sync, a cancel, a refund's reservation) goes through here, so two
 * of them never decide on the same state at once.
 */
public class PaymentUnitOfWork {

    private final Payments payments;
    private final PaymentEvents events;
    private final TransactionTemplate transaction;

    public PaymentUnitOfWork(Payments payments, PaymentEvents events, TransactionTemplate transaction) {
        this.payments = payments;
        this.events = events;
        this.transaction = transaction;
    }

    /** Runs {@code work} on the locked payment, which must exist; the row is written once if the work changed it. */
    public <T> T locked(PaymentId id, Function<Locked, T> work) {
        return lockedIfPresent(id, work).orElseThrow(() -> new IllegalStateException("No payment " + id));
    }

    /** Like {@link #locked}, empty when there is no such payment. */
    public <T> Optional<T> lockedIfPresent(PaymentId id, Function<Locked, T> work) {
        return transaction.execute(tx -> payments.lockById(id).map(payment -> {
            Locked locked = new Locked(payment);
            T result = work.apply(locked);
            if (locked.changed) {
                payments.update(payment);
            }
            return result;
        }));
    }

    /** A payment under its row lock, for the length of one unit of work. */
    public final class Locked {

        private final Payment payment;
        private boolean changed;

        private Locked(Payment payment) {
            this.payment = payment;
        }

        public Payment payment() {
            return payment;
        }

        /** Appends the event the aggregate recorded; the row is updated with it. */
        public void append(PaymentEvent event) {
            events.publish(event);
            changed = true;
        }

        /** Appends the event a decision recorded, if it recorded one. */
        public void append(Optional<? extends PaymentEvent> event) {
            event.ifPresent(this::append);
        }

        /** The payment changed without an event (what the customer was told): the row is updated. */
        public void changed() {
            changed = true;
        }
    }
}

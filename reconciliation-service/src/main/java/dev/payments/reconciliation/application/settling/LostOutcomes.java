package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.RepublishOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.List;

/** The projection's orders that lag their payment's outcome, and the bookkeeping of their repair (port). */
public interface LostOutcomes {

    /**
     * Payments whose outcome happened between {@code notBefore} and {@code before} and whose order (by this service's
     * view of order.events) does not show it, oldest first; none whose repair is backing off or claimed.
     */
    List<LostOutcome> due(Instant now, Instant notBefore, Instant before, int limit);

    /** Takes the payment for one repair until {@code until}; false if another replica holds it or it is not due. */
    boolean claim(LostOutcome lost, Instant now, Instant until);

    /** Stores how the repair went and when it may be tried again; releases the claim. */
    void record(PaymentId paymentId, RepublishOutcome outcome, int attempts, Instant at, Instant nextAttemptAt);
}

package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.Backoff;
import dev.payments.reconciliation.domain.settling.RepublishOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * An order whose payment's outcome never reached order-service (its event was dead-lettered, skipped
 * by a moved offset, lost with a restored database) is repaired through the normal path: payment-service publishes
 * the payment's events again with their own ids, order-service applies what it lacks, every other consumer skips
 * what it had. Asked for once the order has lagged its payment for {@code grace}, again with the settler's backoff,
 * so the order is right within the settle deadline instead of waiting for a 15-minute incident.
 *
 * <p>Orders whose outcome is older than {@code window} are left to the incidents that cover them by then
 * (ORDER_STUCK, the ledger audit's mismatches): the search stays a look at the last minutes of outcomes.
 */
public final class RepublishLostOutcomes {

    private static final Logger log = LoggerFactory.getLogger(RepublishLostOutcomes.class);

    private final LostOutcomes lostOutcomes;
    private final OutcomeRepublisher republisher;
    private final SettleObserver observer;
    private final Clock clock;
    private final Duration grace;
    private final Duration window;
    private final Backoff backoff;
    private final Duration claimLease;
    private final int batchSize;

    public RepublishLostOutcomes(LostOutcomes lostOutcomes, OutcomeRepublisher republisher, SettleObserver observer,
                                 Clock clock, Duration grace, Duration window, Backoff backoff, Duration claimLease,
                                 int batchSize) {
        this.lostOutcomes = lostOutcomes;
        this.republisher = republisher;
        this.observer = observer;
        this.clock = clock;
        this.grace = grace;
        this.window = window;
        this.backoff = backoff;
        this.claimLease = claimLease;
        this.batchSize = batchSize;
    }

    /** @return the payments whose events payment-service published again */
    public int run() {
        Instant now = clock.instant();
        int republished = 0;
        for (LostOutcome lost : lostOutcomes.due(now, now.minus(window), now.minus(grace), batchSize)) {
            Instant at = clock.instant();
            if (!lostOutcomes.claim(lost, at, at.plus(claimLease))) {
                continue;
            }
            RepublishOutcome outcome = republisher.republish(lost.paymentId());
            int attempts = lost.attempts() + 1;
            Instant done = clock.instant();
            lostOutcomes.record(lost.paymentId(), outcome, attempts, done, done.plus(backoff.delay(attempts)));
            observer.republished(outcome);
            if (outcome.result() == RepublishOutcome.Result.REPUBLISHED) {
                republished++;
                log.warn("Order {} is still {} {} s after its payment {} became {}: payment-service published the "
                                + "payment's {} events again (attempt {})", lost.orderId(), lost.orderStatus(),
                        Duration.between(lost.outcomeAt(), done).toSeconds(), lost.paymentId(), lost.paymentStatus(),
                        outcome.events(), attempts);
            } else {
                log.warn("Order {} lags its payment {} ({}), and republishing its events failed: {} {}",
                        lost.orderId(), lost.paymentId(), lost.paymentStatus(), outcome.result(), outcome.detail());
            }
            if (outcome.stopsTheBatch()) {
                break;
            }
        }
        return republished;
    }
}

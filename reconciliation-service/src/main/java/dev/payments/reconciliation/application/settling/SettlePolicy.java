package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.Backoff;

import java.time.Duration;
import java.util.Objects;

/**
 * The settler's numbers (docs/reconciliation.md says why each is what it is).
 *
 * @param settleDeadline        a REQUESTED payment or a PAYMENT_PENDING order older than this is settled
 * @param backoff               between attempts of one payment
 * @param stopAfterFailures     a cycle stops after this many consecutive PG or payment-service failures (001)
 * @param batchSize             payments looked at per cycle at most
 * @param claimLease            how long one attempt may hold a payment; above the sync call's timeout
 * @param compensationAttempts  failed compensating cancels in a row that open an incident
 * @param unresolvedAfter       the long deadline: unresolved payments and stuck orders older than this open incidents
 * @param incidentRetryInterval how often a payment with an open incident is still tried
 */
public record SettlePolicy(Duration settleDeadline, Backoff backoff, int stopAfterFailures, int batchSize,
                           Duration claimLease, int compensationAttempts, Duration unresolvedAfter,
                           Duration incidentRetryInterval) {

    public SettlePolicy {
        Objects.requireNonNull(settleDeadline, "settle deadline");
        Objects.requireNonNull(backoff, "backoff");
        Objects.requireNonNull(claimLease, "claim lease");
        Objects.requireNonNull(unresolvedAfter, "unresolved after");
        Objects.requireNonNull(incidentRetryInterval, "incident retry interval");
        if (stopAfterFailures < 1 || batchSize < 1 || compensationAttempts < 1) {
            throw new IllegalArgumentException("stop-after, batch size and compensation attempts must be at least 1");
        }
    }
}

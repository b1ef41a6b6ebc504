package dev.payments.reconciliation.application.settling;

import java.time.Duration;
import java.time.Instant;

/**
 * What one settle cycle did.
 *
 * @param due             payments that were due when it started
 * @param attempted       sync calls made
 * @param settled         payments that got their final outcome
 * @param failures        attempts that ended in a PG or payment-service failure
 * @param stoppedEarly    it stopped after consecutive failures (001) or because payment-service refused the call
 * @param incidentsOpened incidents opened by this cycle (compensation failures and overdue payments or orders)
 */
public record CycleReport(Instant startedAt, Duration took, int due, int attempted, int settled, int failures,
                          boolean stoppedEarly, String stopReason, int incidentsOpened) {
}

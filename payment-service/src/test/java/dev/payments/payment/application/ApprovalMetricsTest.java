package dev.payments.payment.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** Field report 000: a label that first appears with the fault is invisible to increase(); every one exists at 0. */
class ApprovalMetricsTest {

    @Test
    void everyOutcomeIsRegisteredAtZeroBeforeTheFirstApproval() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        new ApprovalMetrics(meters);

        assertThat(Arrays.stream(ApprovalMetrics.Outcome.values()).map(ApprovalMetrics.Outcome::label))
                .contains("pg_auth_failed", "pg_mismatch")
                .allSatisfy(label -> {
                    Counter counter = meters.find("payment.approval").tag("outcome", label).counter();
                    assertThat(counter).as(label).isNotNull();
                    assertThat(counter.count()).as(label).isZero();
                });
    }
}

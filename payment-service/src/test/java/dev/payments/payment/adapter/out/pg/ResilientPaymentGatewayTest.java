package dev.payments.payment.adapter.out.pg;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.application.PaymentGateway.Admitted;
import dev.payments.payment.application.PaymentGateway.Lane;
import dev.payments.payment.application.PaymentGateway.Rejection;
import dev.payments.payment.application.RecoveryCallsBusyException;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundOutcome;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The admission the use cases never see: a slot and the breaker's permission taken before their work, given back
 * whatever the work did, and a refusal that says why (no PG is called here: the work never approves).
 */
class ResilientPaymentGatewayTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Bulkhead approvals = Bulkhead.of("approvals", BulkheadConfig.custom().maxConcurrentCalls(1)
            .maxWaitDuration(Duration.ZERO).build());
    private final Bulkhead renewals = Bulkhead.of("renewals", BulkheadConfig.custom().maxConcurrentCalls(1)
            .maxWaitDuration(Duration.ZERO).build());
    private final Bulkhead recovery = Bulkhead.of("recovery", BulkheadConfig.custom().maxConcurrentCalls(1)
            .maxWaitDuration(Duration.ZERO).build());
    private final CircuitBreaker breaker = CircuitBreaker.of("approve", CircuitBreakerConfig.custom()
            .permittedNumberOfCallsInHalfOpenState(1).build());
    private final ResilientPaymentGateway gateway = new ResilientPaymentGateway(
            new TossPgClient(new PgClientProperties(URI.create("http://127.0.0.1:9"), "test_sk", Duration.ofSeconds(1),
                    Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1)), new ObjectMapper()),
            null, approvals, recovery, renewals, breaker, CircuitBreaker.ofDefaults("reach"),
            Retry.ofDefaults("approve"), Retry.ofDefaults("query"), Retry.ofDefaults("cancel"), Retry.ofDefaults("refund"),
            Clock.systemUTC(),
            meters);

    @Test
    void workThatNeverAsksThePgGivesTheSlotAndTheBreakersPermissionBack() {
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();

        Admitted<String> first = gateway.underAdmission(Lane.APPROVAL, approver -> "refused in TX-1");
        Admitted<String> second = gateway.underAdmission(Lane.APPROVAL, approver -> "again");

        assertThat(first).isEqualTo(new Admitted.Ran<>("refused in TX-1"));
        assertThat(second).as("the one half-open trial and the one slot were given back").isEqualTo(new Admitted.Ran<>("again"));
        assertThat(breaker.getMetrics().getNumberOfBufferedCalls()).as("not counted for or against the PG").isZero();
        assertThat(approvals.getMetrics().getAvailableConcurrentCalls()).isEqualTo(1);
    }

    @Test
    void aSlotIsGivenBackWhenTheWorkThrows() {
        try {
            gateway.underAdmission(Lane.RENEWAL, approver -> {
                throw new IllegalStateException("database down");
            });
        } catch (IllegalStateException expected) {
            // the work's own failure
        }

        assertThat(renewals.getMetrics().getAvailableConcurrentCalls()).isEqualTo(1);
    }

    @Test
    void anOpenBreakerRefusesBeforeTheWorkRunsAndSaysWhy() {
        breaker.transitionToOpenState();

        Admitted<String> admitted = gateway.underAdmission(Lane.APPROVAL, approver -> {
            throw new AssertionError("the work ran");
        });

        assertThat(admitted).isInstanceOfSatisfying(Admitted.Refused.class, refused -> {
            assertThat(refused.rejection()).isEqualTo(Rejection.BREAKER_OPEN);
            assertThat(refused.retryAfter()).isPositive();
        });
        assertThat(meters.get("payment.admission.rejected").tag("reason", "breaker_open").counter().count())
                .isEqualTo(1);
        assertThat(meters.get("renewal.admission.rejected").tag("reason", "breaker_open").counter().count()).isZero();
    }

    @Test
    void aFullLaneRefusesWithoutTakingTheOtherLanesSlot() {
        Admitted<Admitted<String>> nested = gateway.underAdmission(Lane.RENEWAL,
                approver -> gateway.underAdmission(Lane.RENEWAL, inner -> "second renewal"));
        Admitted<Admitted<String>> beside = gateway.underAdmission(Lane.RENEWAL,
                approver -> gateway.underAdmission(Lane.APPROVAL, inner -> "a live approval"));

        assertThat(((Admitted.Ran<Admitted<String>>) nested).value()).isInstanceOfSatisfying(Admitted.Refused.class,
                refused -> assertThat(refused.rejection()).isEqualTo(Rejection.BULKHEAD_FULL));
        assertThat(((Admitted.Ran<Admitted<String>>) beside).value()).isEqualTo(new Admitted.Ran<>("a live approval"));
    }

    @Test
    void aRecoveryCallFindingEverySlotBusyIsNotSentAndSaysSo() {
        recovery.acquirePermission();

        assertThatThrownBy(() -> gateway.status("pk-1")).isInstanceOf(RecoveryCallsBusyException.class);
        assertThat(gateway.refund("pk-1", RefundId.newId(), 1_000, "member asked"))
                .isEqualTo(new RefundOutcome.NotSent("PG_RECOVERY_BUSY"));
        assertThat(meters.get("pg.recovery.rejected").counter().count()).isEqualTo(2);
    }
}

package dev.payments.reconciliation.domain.settling;

import dev.payments.reconciliation.domain.projection.PaymentStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CycleBreakerTest {

    private static final SyncOutcome PG_DOWN = new SyncOutcome.PgFailed(FailureStage.STATUS_QUERY, "502");
    private static final SyncOutcome CANCEL_FAILED = new SyncOutcome.PgFailed(FailureStage.CANCEL, "502");
    private static final SyncOutcome UNREACHABLE = new SyncOutcome.Unavailable("connection refused");
    private static final SyncOutcome ANSWERED = new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "IN_PROGRESS",
            "RETRY_LATER");
    private static final SyncOutcome NOT_FOUND = new SyncOutcome.NotFound("no such payment");

    @Test
    void opensAfterThreeConsecutiveFailuresOfAnyKind() {
        CycleBreaker breaker = new CycleBreaker(3);
        breaker.record(PG_DOWN);
        breaker.record(UNREACHABLE);
        assertThat(breaker.open()).isFalse();
        breaker.record(CANCEL_FAILED);
        assertThat(breaker.open()).isTrue();
    }

    @Test
    void anAnswerFromThePgStartsTheCountAgain() {
        CycleBreaker breaker = new CycleBreaker(3);
        breaker.record(PG_DOWN);
        breaker.record(PG_DOWN);
        breaker.record(ANSWERED);
        breaker.record(PG_DOWN);
        breaker.record(PG_DOWN);
        assertThat(breaker.open()).isFalse();
        assertThat(breaker.consecutiveFailures()).isEqualTo(2);
    }

    @Test
    void aPaymentUnknownToPaymentServiceNeitherCountsNorResets() {
        CycleBreaker breaker = new CycleBreaker(3);
        breaker.record(PG_DOWN);
        breaker.record(NOT_FOUND);
        breaker.record(PG_DOWN);
        breaker.record(NOT_FOUND);
        assertThat(breaker.consecutiveFailures()).isEqualTo(2);
        breaker.record(PG_DOWN);
        assertThat(breaker.open()).isTrue();
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> new CycleBreaker(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

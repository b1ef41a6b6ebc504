package dev.payments.reconciliation.domain.settling;

import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The settle decisions: what settles a payment, what backs off, what counts toward a compensation incident. */
class SettlementTest {

    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
    private static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(5), 2.0, Duration.ofSeconds(20));
    private static final PaymentId PAYMENT = new PaymentId(UUID.randomUUID());
    private static final OrderId ORDER = new OrderId(UUID.randomUUID());

    private final Settlement fresh = Settlement.first(PAYMENT, ORDER, SettleTrigger.PAYMENT_UNKNOWN, T0);

    @Test
    void aNewSettlementIsDueAtOnce() {
        assertThat(fresh.nextAttemptAt()).isEqualTo(T0);
        assertThat(fresh.attempts()).isZero();
        assertThat(fresh.settled()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = PaymentStatus.class, names = {"APPROVED", "DECLINED", "FAILED", "CANCELED"})
    void anAnswerWithAFinalStatusSettlesThePayment(PaymentStatus status) {
        Settlement next = fresh.after(new SyncOutcome.Answered(status, "DONE", "APPROVED"), T0.plusSeconds(1), BACKOFF);

        assertThat(next.settled()).isTrue();
        assertThat(next.settledStatus()).isEqualTo(status);
        assertThat(next.settledAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(next.lastResult()).isEqualTo(AttemptResult.SETTLED);
        assertThat(next.attempts()).isEqualTo(1);
        assertThat(next.unsettledStreak()).isZero();
    }

    @Test
    void noneWithASettledStatusSettlesToo() {
        // payment-service had settled it already; only our projection had not caught up.
        Settlement next = fresh.after(new SyncOutcome.Answered(PaymentStatus.APPROVED, "DONE", "NONE"), T0, BACKOFF);
        assertThat(next.settled()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = PaymentStatus.class, names = {"REQUESTED", "UNKNOWN"})
    void anUndecidedPgBacksOff(PaymentStatus stillUnresolved) {
        Settlement next = fresh.after(new SyncOutcome.Answered(stillUnresolved, "IN_PROGRESS", "RETRY_LATER"), T0,
                BACKOFF);

        assertThat(next.settled()).isFalse();
        assertThat(next.lastResult()).isEqualTo(AttemptResult.PG_UNDECIDED);
        assertThat(next.lastPgState()).isEqualTo("IN_PROGRESS");
        assertThat(next.nextAttemptAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void aPaymentThePgHasNoRecordOfIsAskedAgainWhenPaymentServiceCanDecideItNotAWholeBackoffLater() {
        Settlement s = fresh;
        for (int i = 0; i < 3; i++) {   // the backoff is at its 20 s cap
            s = s.after(new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "NOT_FOUND", "RETRY_LATER"), T0, BACKOFF);
        }
        Instant graceEnds = T0.plusSeconds(7);

        Settlement next = s.after(new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "NOT_FOUND", "RETRY_LATER",
                graceEnds), T0, BACKOFF);

        assertThat(next.nextAttemptAt()).isEqualTo(graceEnds);
        assertThat(next.lastResult()).isEqualTo(AttemptResult.PG_UNDECIDED);
    }

    @Test
    void aRetryAtLaterThanTheBackoffOrPastChangesNothingOrAsksAtOnce() {
        Settlement later = fresh.after(new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "NOT_FOUND", "RETRY_LATER",
                T0.plusSeconds(50)), T0, BACKOFF);
        Settlement past = fresh.after(new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "NOT_FOUND", "RETRY_LATER",
                T0.minusSeconds(1)), T0, BACKOFF);

        assertThat(later.nextAttemptAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(past.nextAttemptAt()).isEqualTo(T0);
    }

    @Test
    void eachUnsuccessfulAttemptDoublesTheWaitUpToTheCap() {
        Settlement s = fresh;
        Instant at = T0;
        Duration[] expected = {Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20),
                Duration.ofSeconds(20)};
        SyncOutcome[] outcomes = {new SyncOutcome.Unavailable("refused"),
                new SyncOutcome.PgFailed(FailureStage.STATUS_QUERY, "502"), new SyncOutcome.NotFound("404"),
                new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "READY", "RETRY_LATER")};
        for (int i = 0; i < outcomes.length; i++) {
            s = s.after(outcomes[i], at, BACKOFF);
            assertThat(Duration.between(at, s.nextAttemptAt())).as("after attempt %d", i + 1).isEqualTo(expected[i]);
            at = s.nextAttemptAt();
        }
        assertThat(s.attempts()).isEqualTo(4);
        assertThat(s.unsettledStreak()).isEqualTo(4);
        assertThat(s.firstAttemptAt()).isEqualTo(T0);
    }

    @Test
    void failedCancelsCountTowardTheCompensationIncidentAndAPgAnswerResetsThem() {
        SyncOutcome cancelFailed = new SyncOutcome.PgFailed(FailureStage.CANCEL, "PG refused to cancel pk_1");
        Settlement s = fresh.after(cancelFailed, T0, BACKOFF).after(cancelFailed, T0.plusSeconds(5), BACKOFF);
        assertThat(s.compensationFailures()).isEqualTo(2);
        assertThat(s.lastResult()).isEqualTo(AttemptResult.COMPENSATION_FAILED);
        assertThat(s.lastPgState()).as("a cancel is only tried when the PG says DONE").isEqualTo("DONE");

        Settlement queryFailed = s.after(new SyncOutcome.PgFailed(FailureStage.STATUS_QUERY, "502"), T0, BACKOFF);
        assertThat(queryFailed.compensationFailures()).as("no successful cancel in between").isEqualTo(2);
        Settlement unreachable = queryFailed.after(new SyncOutcome.Unavailable("timeout"), T0, BACKOFF);
        assertThat(unreachable.compensationFailures()).isEqualTo(2);

        Settlement answered = unreachable.after(new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "IN_PROGRESS",
                "RETRY_LATER"), T0, BACKOFF);
        assertThat(answered.compensationFailures()).isZero();
    }

    @Test
    void aSettledPaymentIsNeverTriedAgain() {
        Settlement settled = fresh.after(new SyncOutcome.Answered(PaymentStatus.FAILED, "CANCELED", "FAILED"), T0,
                BACKOFF);
        assertThatThrownBy(() -> settled.after(new SyncOutcome.Unavailable("x"), T0, BACKOFF))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRefusedCallSaysNothingAboutThePayment() {
        assertThatThrownBy(() -> fresh.after(new SyncOutcome.Refused(401, "token"), T0, BACKOFF))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOpenIncidentOnlyEverDelaysTheNextAttempt() {
        Settlement backingOff = fresh.after(new SyncOutcome.Unavailable("x"), T0, BACKOFF);
        assertThat(backingOff.notBefore(T0.plusSeconds(300)).nextAttemptAt()).isEqualTo(T0.plusSeconds(300));
        assertThat(backingOff.notBefore(T0.plusSeconds(1)).nextAttemptAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void longDetailsAreCutToWhatTheTableHolds() {
        Settlement s = fresh.after(new SyncOutcome.Unavailable("x".repeat(5_000)), T0, BACKOFF);
        assertThat(s.lastDetail()).hasSize(1000).endsWith("...");
    }
}

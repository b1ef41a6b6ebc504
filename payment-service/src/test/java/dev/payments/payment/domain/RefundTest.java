package dev.payments.payment.domain;

import dev.payments.contracts.RefundFailed;
import dev.payments.contracts.RefundRequested;
import dev.payments.contracts.RefundSucceeded;
import dev.payments.contracts.RefundUnknown;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.payments.payment.domain.PaymentTestData.NOT_FOUND_IS_FINAL_AFTER;
import static dev.payments.payment.domain.PaymentTestData.T0;
import static dev.payments.payment.domain.PaymentTestData.aPayment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What each PG answer means for a refund: {@link Refund#record} and {@link Refund#settleWith}, every row. */
class RefundTest {

    private static final Instant NOW = T0.plusSeconds(5);

    private final Payment payment = aPayment().withAmount(10_000).approved().build();

    @Test
    void onlyAnApprovedPaymentCanBeRefundedAndNeverForMoreThanItsAmount() {
        Refund refund = refund(4_000);

        RefundRequested requested = refund.requested();

        assertThat(requested.amount()).isEqualTo(4_000);
        assertThat(requested.paymentAmount()).isEqualTo(10_000);
        assertThat(refund.pgCancelReason()).startsWith("refund " + refund.id() + ":").endsWith("one item");
        assertThatThrownBy(() -> Refund.request(RefundId.newId(), aPayment().unknown().build(), 1, null,
                Refund.Requester.MEMBER, "m", NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> refund(10_001)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> refund(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePgsAnswerWithOurCancelSucceedsWithTheRefundedTotal() {
        Refund refund = refund(4_000);

        Decision<Refund.Action> change = refund.record(new RefundOutcome.Answered(pgWith(ours(refund, 4_000))), 3_000, NOW);

        assertThat(change.action()).isEqualTo(Refund.Action.SUCCEEDED);
        assertThat(refund.status()).isEqualTo(RefundStatus.SUCCEEDED);
        RefundSucceeded event = (RefundSucceeded) change.event().orElseThrow();
        assertThat(event.refundedTotal()).isEqualTo(7_000);
        assertThat(event.pgTransactionKey()).isEqualTo("tx-ours");
        assertThat(refund.pgTransactionKey()).isEqualTo("tx-ours");
    }

    @Test
    void anAnswerWithoutOurCancelOrWithAnotherAmountIsUnknownNeverSucceeded() {
        Refund noCancel = refund(4_000);
        Refund otherAmount = refund(4_000);

        noCancel.record(new RefundOutcome.Answered(pgWith()), 0, NOW);
        otherAmount.record(new RefundOutcome.Answered(pgWith(ours(otherAmount, 4_500))), 0, NOW);

        assertThat(noCancel.status()).isEqualTo(RefundStatus.UNKNOWN);
        assertThat(noCancel.failureCode()).isEqualTo(Refund.PG_CANCEL_NOT_SHOWN);
        assertThat(otherAmount.status()).isEqualTo(RefundStatus.UNKNOWN);
        assertThat(otherAmount.failureCode()).isEqualTo(Refund.PG_AMOUNT_MISMATCH);
    }

    @Test
    void aRefusalOrACancelNeverSentFailsBecauseNothingWasBooked() {
        Refund refused = refund(4_000);
        Refund notSent = refund(4_000);

        Decision<Refund.Action> change = refused.record(new RefundOutcome.Refused("NOT_CANCELABLE_AMOUNT", "too much"), 0, NOW);
        notSent.record(new RefundOutcome.NotSent("PG_CONNECT_FAILED"), 0, NOW);

        assertThat(change.event()).containsInstanceOf(RefundFailed.class);
        assertThat(refused.failureCode()).isEqualTo("PG_NOT_CANCELABLE_AMOUNT");
        assertThat(notSent.status()).isEqualTo(RefundStatus.FAILED);
    }

    @Test
    void aLostAnswerIsSettledByTheStatusAskedAfterItOrStaysUnknown() {
        Refund found = refund(4_000);
        Refund notShown = refund(4_000);
        Refund notAsked = refund(4_000);

        found.record(new RefundOutcome.Lost("PG_READ_TIMEOUT", pgWith(ours(found, 4_000))), 0, NOW);
        notShown.record(new RefundOutcome.Lost("PG_SERVER_ERROR", pgWith()), 0, NOW);
        Decision<Refund.Action> unknown = notAsked.record(new RefundOutcome.Lost("PG_ANSWER_LOST", null), 0, NOW);

        assertThat(found.status()).isEqualTo(RefundStatus.SUCCEEDED);
        assertThat(notShown.status()).isEqualTo(RefundStatus.UNKNOWN);
        assertThat(unknown.event()).containsInstanceOf(RefundUnknown.class);
        assertThat(notAsked.failureCode()).isEqualTo("PG_ANSWER_LOST");
        assertThatThrownBy(() -> notAsked.record(new RefundOutcome.NotSent("x"), 0, NOW))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void settlingFindsALostRefundInThePgsCancelsAndFailsOneTheyNeverShowAfterTheDeadline() {
        Refund lost = unknown(4_000);
        Refund young = unknown(4_000);
        Refund old = unknown(4_000);

        Decision<Refund.Action> found = lost.settleWith(pgWith(ours(lost, 4_000)), 0, NOW, NOT_FOUND_IS_FINAL_AFTER);
        Decision<Refund.Action> retry = young.settleWith(pgWith(), 0, NOW, NOT_FOUND_IS_FINAL_AFTER);
        Decision<Refund.Action> failed = old.settleWith(pgWith(), 0, NOW.plus(NOT_FOUND_IS_FINAL_AFTER).plusSeconds(1),
                NOT_FOUND_IS_FINAL_AFTER);

        assertThat(found.action()).isEqualTo(Refund.Action.SUCCEEDED);
        assertThat(retry.action()).isEqualTo(Refund.Action.RETRY_LATER);
        assertThat(retry.event()).isEmpty();
        assertThat(failed.action()).isEqualTo(Refund.Action.FAILED);
        assertThat(old.failureCode()).isEqualTo(Refund.PG_CANCEL_NOT_FOUND);
    }

    @Test
    void aLateBookingOfAFailedRefundSucceedsAndAnythingElseAboutAFinalRefundChangesNothing() {
        Refund late = unknown(4_000);
        late.settleWith(pgWith(), 0, NOW.plus(Duration.ofHours(1)), NOT_FOUND_IS_FINAL_AFTER);
        Refund succeeded = refund(4_000);
        succeeded.record(new RefundOutcome.Answered(pgWith(ours(succeeded, 4_000))), 0, NOW);

        Decision<Refund.Action> booked = late.settleWith(pgWith(ours(late, 4_000)), 0, NOW, NOT_FOUND_IS_FINAL_AFTER);

        assertThat(booked.action()).isEqualTo(Refund.Action.SUCCEEDED);
        assertThat(late.status()).isEqualTo(RefundStatus.SUCCEEDED);
        assertThat(succeeded.settleWith(pgWith(ours(succeeded, 4_000)), 0, NOW, NOT_FOUND_IS_FINAL_AFTER).action())
                .isEqualTo(Refund.Action.NONE);
        assertThat(succeeded.settleWith(pgWith(ours(succeeded, 1)), 0, NOW, NOT_FOUND_IS_FINAL_AFTER).action())
                .isEqualTo(Refund.Action.MISMATCH);
        Refund mismatched = unknown(4_000);
        assertThat(mismatched.settleWith(pgWith(ours(mismatched, 3_999)), 0, NOW, NOT_FOUND_IS_FINAL_AFTER).action())
                .isEqualTo(Refund.Action.MISMATCH);
        assertThat(mismatched.status()).isEqualTo(RefundStatus.UNKNOWN);
    }

    private Refund refund(long amount) {
        return Refund.request(RefundId.newId(), payment, amount, "one item", Refund.Requester.MEMBER,
                payment.memberId().value(), NOW);
    }

    private Refund unknown(long amount) {
        Refund refund = refund(amount);
        refund.record(new RefundOutcome.Lost("PG_READ_TIMEOUT", null), 0, NOW);
        return refund;
    }

    private static PgCancel ours(Refund refund, long amount) {
        return new PgCancel("tx-ours", amount, refund.pgCancelReason(), NOW);
    }

    private PgStatus pgWith(PgCancel... cancels) {
        return new PgStatus(cancels.length == 0 ? PgState.DONE : PgState.PARTIAL_CANCELED, payment.paymentKey(),
                payment.orderId().toString(), payment.money().amount(), "tx-approve", T0,
                List.of(cancels));
    }
}

package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.UUID;

import static dev.payments.reconciliation.domain.projection.PaymentFacts.T0;
import static dev.payments.reconciliation.domain.projection.PaymentFacts.aPaymentEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaymentViewTest {

    private static final Instant T1 = T0.plusSeconds(1);
    private static final Instant T2 = T0.plusSeconds(2);
    private static final Instant RECEIVED = T0.plusSeconds(10);

    @Test
    void anyEventOfAPaymentCreatesItsViewWithEverythingTheEventCarries() {
        PaymentFact approved = aPaymentEvent().approved().at(T1).build();

        PaymentView view = PaymentView.firstSeen(approved, RECEIVED);

        assertThat(view.status()).isEqualTo(PaymentStatus.APPROVED);
        assertThat(view.orderId()).isEqualTo(PaymentFacts.ORDER);
        assertThat(view.memberId()).isEqualTo(new MemberId("member-1"));
        assertThat(view.amount()).isEqualTo(new Money(15_000, "KRW"));
        assertThat(view.pgTransactionKey()).isEqualTo("txn_0001");
        assertThat(view.approvedAt()).isEqualTo(T1);
        assertThat(view.bookkeeping().lastEventType()).isEqualTo("PaymentApproved");
        assertThat(view.bookkeeping().lastEventId()).isEqualTo(approved.event().eventId());
        assertThat(view.bookkeeping().lastEventAt()).isEqualTo(T1);
        assertThat(view.bookkeeping().firstSeenAt()).isEqualTo(RECEIVED);
        assertThat(view.bookkeeping().eventsApplied()).isEqualTo(1);
    }

    @Test
    void eventsInOrderAdvanceThePaymentAndKeepWhatEarlierOnesSaid() {
        PaymentView view = PaymentView.firstSeen(aPaymentEvent().requested().at(T0).build(), RECEIVED);

        Projected<PaymentView> approved = view.apply(aPaymentEvent().approved().at(T1).build(), RECEIVED.plusSeconds(1));
        Projected<PaymentView> canceled = approved.view().apply(aPaymentEvent().canceled().at(T2).build(),
                RECEIVED.plusSeconds(2));

        assertThat(approved.effect()).isEqualTo(ProjectionEffect.ADVANCED);
        assertThat(canceled.effect()).isEqualTo(ProjectionEffect.ADVANCED);
        PaymentView end = canceled.view();
        assertThat(end.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(end.statusReason()).isEqualTo("COMPENSATION");
        assertThat(end.pgTransactionKey()).isEqualTo("txn_0001");
        assertThat(end.approvedAt()).isEqualTo(T1);
        assertThat(end.canceledAt()).isEqualTo(T2);
        assertThat(end.bookkeeping().lastEventType()).isEqualTo("PaymentCanceled");
        assertThat(end.bookkeeping().firstSeenAt()).isEqualTo(RECEIVED);
        assertThat(end.bookkeeping().updatedAt()).isEqualTo(RECEIVED.plusSeconds(2));
        assertThat(end.bookkeeping().eventsApplied()).isEqualTo(3);
        assertThat(end.bookkeeping().conflicts()).isZero();
    }

    @Test
    void aLateRequestNeverTakesAnApprovedPaymentBack() {
        PaymentView approved = PaymentView.firstSeen(aPaymentEvent().approved().at(T1).build(), RECEIVED);

        Projected<PaymentView> late = approved.apply(aPaymentEvent().requested().at(T0).build(), RECEIVED);

        assertThat(late.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(late.view().status()).isEqualTo(PaymentStatus.APPROVED);
        assertThat(late.view().bookkeeping().lastEventType()).isEqualTo("PaymentApproved");
        assertThat(late.view().bookkeeping().lastEventAt()).isEqualTo(T1);
        assertThat(late.view().bookkeeping().eventsApplied()).isEqualTo(2);
    }

    @Test
    void aLateApprovalStillLeavesItsPgTransactionKeyOnACanceledPayment() {
        PaymentView canceled = PaymentView.firstSeen(aPaymentEvent().canceled().at(T2).build(), RECEIVED);

        Projected<PaymentView> late = canceled.apply(aPaymentEvent().approved().at(T1).build(), RECEIVED);

        assertThat(late.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(late.view().status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(late.view().statusReason()).isEqualTo("COMPENSATION");
        assertThat(late.view().pgTransactionKey()).isEqualTo("txn_0001");
        assertThat(late.view().approvedAt()).isEqualTo(T1);
    }

    @Test
    void anUnknownPaymentSettlesButALateUnknownDoesNotUnsettleIt() {
        PaymentView unknown = PaymentView.firstSeen(aPaymentEvent().unknown().at(T0).build(), RECEIVED);
        Projected<PaymentView> settled = unknown.apply(aPaymentEvent().approved().at(T1).build(), RECEIVED);
        assertThat(settled.effect()).isEqualTo(ProjectionEffect.ADVANCED);

        PaymentView approvedFirst = PaymentView.firstSeen(aPaymentEvent().approved().at(T1).build(), RECEIVED);
        Projected<PaymentView> lateUnknown = approvedFirst.apply(aPaymentEvent().unknown().at(T0).build(), RECEIVED);

        assertThat(lateUnknown.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(lateUnknown.view().status()).isEqualTo(PaymentStatus.APPROVED);
        assertThat(lateUnknown.view().statusReason()).isNull();
    }

    @Test
    void theSameOutcomeUnderANewEventIdChangesNothingButTheCount() {
        PaymentView approved = PaymentView.firstSeen(aPaymentEvent().approved().at(T1).build(), RECEIVED);

        Projected<PaymentView> again = approved.apply(aPaymentEvent().approved().at(T2).build(), RECEIVED);

        assertThat(again.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(again.view().bookkeeping().lastEventId()).isEqualTo(approved.bookkeeping().lastEventId());
        assertThat(again.view().bookkeeping().lastEventAt()).isEqualTo(T1);
        assertThat(again.view().bookkeeping().eventsApplied()).isEqualTo(2);
        assertThat(again.view().bookkeeping().conflicts()).isZero();
    }

    @Test
    void contradictingOutcomesAreCountedAndTheLaterOccurrenceWinsWhicheverArrivesFirst() {
        PaymentFact approved = aPaymentEvent().approved().at(T1).build();
        PaymentFact failed = aPaymentEvent().failed().at(T2).build();

        Projected<PaymentView> approvedThenFailed = PaymentView.firstSeen(approved, RECEIVED).apply(failed, RECEIVED);
        Projected<PaymentView> failedThenApproved = PaymentView.firstSeen(failed, RECEIVED).apply(approved, RECEIVED);

        assertThat(approvedThenFailed.effect()).isEqualTo(ProjectionEffect.CONFLICT);
        assertThat(failedThenApproved.effect()).isEqualTo(ProjectionEffect.CONFLICT);
        assertThat(approvedThenFailed.view().status()).isEqualTo(PaymentStatus.FAILED);
        assertThat(failedThenApproved.view().status()).isEqualTo(PaymentStatus.FAILED);
        assertThat(approvedThenFailed.view().bookkeeping().conflicts()).isEqualTo(1);
        assertThat(failedThenApproved.view().bookkeeping().conflicts()).isEqualTo(1);
        // the PG key of the approval stays visible for the ledger audit either way
        assertThat(failedThenApproved.view().pgTransactionKey()).isEqualTo("txn_0001");
    }

    @Test
    void contradictingOutcomesAtTheSameInstantKeepWhatIsThere() {
        PaymentView approved = PaymentView.firstSeen(aPaymentEvent().approved().at(T1).build(), RECEIVED);

        Projected<PaymentView> declined = approved.apply(aPaymentEvent().declined().at(T1).build(), RECEIVED);

        assertThat(declined.effect()).isEqualTo(ProjectionEffect.CONFLICT);
        assertThat(declined.view().status()).isEqualTo(PaymentStatus.APPROVED);
    }

    @Test
    void refusesAnEventOfAnotherPayment() {
        PaymentView view = PaymentView.firstSeen(aPaymentEvent().requested().build(), RECEIVED);
        PaymentFact other = aPaymentEvent().approved().ofPayment(new PaymentId(UUID.randomUUID())).build();

        assertThatThrownBy(() -> view.apply(other, RECEIVED)).isInstanceOf(IllegalArgumentException.class);
    }

    /** DESIGN.md "States": every legal payment transition goes to a higher rank, so it can never be undone by order. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "REQUESTED, APPROVED", "REQUESTED, DECLINED", "REQUESTED, FAILED", "REQUESTED, UNKNOWN",
            "UNKNOWN, APPROVED", "UNKNOWN, FAILED", "UNKNOWN, CANCELED", "APPROVED, CANCELED"})
    void everyLegalTransitionRanksHigher(PaymentStatus from, PaymentStatus to) {
        assertThat(to.rank()).isGreaterThan(from.rank());
    }

    @Test
    void thePgsPaymentKeyComesFromPaymentRequestedEvenWhenItArrivesLate() {
        PaymentView view = PaymentView.firstSeen(PaymentFacts.aPaymentEvent().unknown().build(), PaymentFacts.T0);
        assertThat(view.paymentKey()).isNull();

        PaymentView merged = view.apply(PaymentFacts.aPaymentEvent().requested().build(), PaymentFacts.T0).view();

        assertThat(merged.status()).isEqualTo(PaymentStatus.UNKNOWN);
        assertThat(merged.paymentKey()).isEqualTo("pk_0001");
    }
}

package dev.payments.payment.domain;

import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.contracts.PaymentUnknown;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.payments.payment.domain.PaymentStatus.APPROVED;
import static dev.payments.payment.domain.PaymentStatus.CANCELED;
import static dev.payments.payment.domain.PaymentStatus.CANCEL_OWED;
import static dev.payments.payment.domain.PaymentStatus.DECLINED;
import static dev.payments.payment.domain.PaymentStatus.FAILED;
import static dev.payments.payment.domain.PaymentStatus.REQUESTED;
import static dev.payments.payment.domain.PaymentStatus.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaymentTest {

    private static final Instant NOW = Instant.parse("2026-11-29T07:50:00Z");

    /** docs/architecture.md "States": every allowed transition; everything else must be refused. */
    private static final Set<String> ALLOWED = Set.of(
            "REQUESTED->APPROVED", "REQUESTED->DECLINED", "REQUESTED->FAILED", "REQUESTED->UNKNOWN",
            "REQUESTED->CANCEL_OWED",
            "UNKNOWN->APPROVED", "UNKNOWN->FAILED", "UNKNOWN->CANCEL_OWED",
            "APPROVED->CANCEL_OWED", "APPROVED->CANCELED",
            "DECLINED->CANCEL_OWED", "FAILED->CANCEL_OWED",
            "CANCEL_OWED->CANCELED");

    static Stream<Arguments> everyPair() {
        return EnumSet.allOf(PaymentStatus.class).stream()
                .flatMap(from -> EnumSet.allOf(PaymentStatus.class).stream().map(to -> Arguments.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyPair")
    void onlyTheDesignedTransitionsAreAllowed(PaymentStatus from, PaymentStatus to) {
        Payment payment = aPayment().in(from);
        boolean allowed = ALLOWED.contains(from + "->" + to);

        if (allowed) {
            move(payment, to);
            assertThat(payment.status()).isEqualTo(to);
        } else {
            assertThatThrownBy(() -> move(payment, to))
                    .isInstanceOf(IllegalTransitionException.class)
                    .hasMessageContaining(from + " to " + to);
            assertThat(payment.status()).isEqualTo(from);
        }
    }

    @Test
    void approvalRecordsTheTransactionAndEmitsPaymentApproved() {
        Payment payment = aPayment().in(REQUESTED);

        PaymentApproved event = payment.approve("txn-1", NOW);

        assertThat(event.paymentId()).isEqualTo(payment.id().value());
        assertThat(event.orderId()).isEqualTo(payment.orderId().value());
        assertThat(event.pgTransactionKey()).isEqualTo("txn-1");
        assertThat(payment.pgTransactionKey()).isEqualTo("txn-1");
        assertThat(payment.approvedAt()).isEqualTo(NOW);
    }

    @Test
    void unknownIsAStateNotAFailure() {
        Payment payment = aPayment().in(REQUESTED);

        PaymentUnknown event = payment.markUnknown("PG_READ_TIMEOUT", NOW);

        assertThat(payment.status()).isEqualTo(UNKNOWN);
        assertThat(payment.status().isUnsettled()).isTrue();
        assertThat(payment.status().isLive()).isTrue();
        assertThat(event.reason()).isEqualTo("PG_READ_TIMEOUT");
    }

    @Test
    void cancellingAnApprovalKeepsItsTransactionAndSaysWhy() {
        Payment payment = aPayment().in(APPROVED);

        PaymentCanceled event = payment.cancel("COMPENSATION", NOW);

        assertThat(event.reason()).isEqualTo("COMPENSATION");
        assertThat(payment.pgTransactionKey()).isNotNull();
        assertThat(payment.status().isLive()).isFalse();
    }

    @Test
    void aPaymentThePgHasNoRecordOfCanBeDecidedOnceItsGraceHasPassedAndNoOtherAnswerSaysWhen() {
        Payment unknown = PaymentTestData.aPayment().requestedAt(NOW).unknown().build();
        Payment approved = PaymentTestData.aPayment().requestedAt(NOW).approved().build();

        assertThat(unknown.decidableAt(PgStatus.notFound(), PaymentTestData.NOT_FOUND_IS_FINAL_AFTER))
                .contains(NOW.plus(PaymentTestData.NOT_FOUND_IS_FINAL_AFTER));
        assertThat(PaymentTestData.aPayment().requestedAt(NOW).build()
                .decidableAt(PgStatus.notFound(), PaymentTestData.NOT_FOUND_IS_FINAL_AFTER)).isPresent();
        assertThat(unknown.decidableAt(PaymentTestData.pg(unknown, PgState.IN_PROGRESS),
                PaymentTestData.NOT_FOUND_IS_FINAL_AFTER)).isEmpty();
        assertThat(approved.decidableAt(PgStatus.notFound(), PaymentTestData.NOT_FOUND_IS_FINAL_AFTER)).isEmpty();
    }

    @Test
    void finalStatesHoldNoMoney() {
        // CANCEL_OWED holds money on its way back: a new attempt for the order may start beside it.
        assertThat(EnumSet.of(DECLINED, FAILED, CANCEL_OWED, CANCELED))
                .allSatisfy(status -> assertThat(status.isLive()).isFalse());
        assertThat(EnumSet.of(REQUESTED, UNKNOWN, APPROVED)).allSatisfy(status -> assertThat(status.isLive()).isTrue());
    }

    @Test
    void whatTheCustomerWasToldIsRecorded() {
        Payment payment = aPayment().in(REQUESTED);
        assertThat(payment.customerNotice()).isEqualTo(CustomerNotice.NONE);

        payment.markUnknown("PG_ANSWER_LOST", NOW);
        payment.told(CustomerNotice.PENDING);

        assertThat(payment.customerNotice()).isEqualTo(CustomerNotice.PENDING);
    }

    @Test
    void everyEventOfARenewalChargeSaysItIsOne() {
        List<PaymentEvent> events = List.of(
                renewal().build().requested(),
                renewal().build().approve("txn", NOW),
                renewal().build().decline("EXCEED_MAX_CARD_LIMIT", "limit", NOW),
                renewal().build().fail("PG_CONNECT_FAILED", NOW),
                renewal().build().markUnknown("PG_READ_TIMEOUT", NOW),
                renewal().approved().build().owe("COMPENSATION", "txn", NOW),
                renewal().approved().refundRequested().build().cancel("COMPENSATION", NOW));

        assertThat(events).extracting(PaymentEvent::purpose).containsOnly(PaymentPurpose.RENEWAL);
        assertThat(aPayment().in(APPROVED).purpose()).isEqualTo(PaymentPurpose.ORDER);
        assertThat(aPayment().in(CANCELED).requested().purpose()).isEqualTo(PaymentPurpose.ORDER);
    }

    private static PaymentTestData renewal() {
        return PaymentTestData.aPayment().forRenewal();
    }

    private static void move(Payment payment, PaymentStatus to) {
        Consumer<Payment> verb = switch (to) {
            case APPROVED -> p -> p.approve("txn", NOW);
            case DECLINED -> p -> p.decline("EXCEED_MAX_CARD_LIMIT", "limit", NOW);
            case FAILED -> p -> p.fail("PG_CONNECT_FAILED", NOW);
            case UNKNOWN -> p -> p.markUnknown("PG_READ_TIMEOUT", NOW);
            case CANCEL_OWED -> p -> p.owe("COMPENSATION", "txn", NOW);
            case CANCELED -> p -> p.cancel("COMPENSATION", NOW);
            case REQUESTED -> p -> {
                throw new IllegalTransitionException("Payment", p.id(), p.status(), REQUESTED);
            };
        };
        verb.accept(payment);
    }

    /** A payment in {@code status}, reached through the real verbs. */
    private static PaymentInState aPayment() {
        return new PaymentInState();
    }

    private static final class PaymentInState {

        Payment in(PaymentStatus status) {
            PaymentTestData data = PaymentTestData.aPayment();
            return switch (status) {
                case REQUESTED -> data.build();
                case APPROVED -> data.approved().build();
                case DECLINED -> data.declined().build();
                case FAILED -> data.failed().build();
                case UNKNOWN -> data.unknown().build();
                case CANCEL_OWED -> data.approved().refundRequested().build();
                case CANCELED -> data.approved().refundRequested().canceledAtPg().build();
            };
        }
    }
}

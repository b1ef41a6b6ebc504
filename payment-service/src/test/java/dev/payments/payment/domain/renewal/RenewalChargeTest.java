package dev.payments.payment.domain.renewal;

import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RenewalChargeTest {

    private static final Instant NOW = Instant.parse("2026-12-01T18:00:00Z");
    private static final LocalDate PERIOD = LocalDate.of(2026, 12, 2);
    private static final DunningPolicy DUNNING = new DunningPolicy(List.of(Duration.ofDays(1), Duration.ofDays(3)),
            Duration.ofMinutes(10));
    private static final SubscriptionId SUBSCRIPTION = new SubscriptionId(UUID.fromString(
            "6d1c7a53-1b7e-4c0f-9a51-3f7e2b9d0c11"));

    private RenewalCharge charging() {
        RenewalCharge charge = RenewalCharge.due(SUBSCRIPTION, PERIOD, NOW);
        charge.startAttempt(PaymentId.newId(), NOW);
        return charge;
    }

    @Test
    void anAttemptsOrderAndPgKeyAreDerivedFromSubscriptionPeriodAndAttempt() {
        RenewalCharge first = charging();
        RenewalCharge again = charging();

        assertThat(first.orderId()).isEqualTo(again.orderId());
        assertThat(first.idempotencyKey()).isEqualTo(again.idempotencyKey())
                .isEqualTo("renewal-6d1c7a53-1b7e-4c0f-9a51-3f7e2b9d0c11-2026-12-02-1");

        first.settle(PaymentStatus.DECLINED, NOW, DUNNING);
        first.startAttempt(PaymentId.newId(), NOW.plus(Duration.ofDays(1)));
        assertThat(first.orderId()).isNotEqualTo(again.orderId());
        assertThat(first.idempotencyKey()).endsWith("-2");
    }

    @Test
    void anApprovedPaymentPaysThePeriodForGood() {
        RenewalCharge charge = charging();

        assertThat(charge.settle(PaymentStatus.APPROVED, NOW, DUNNING)).isEqualTo(RenewalCharge.Settled.CHARGED);
        assertThat(charge.state()).isEqualTo(RenewalCharge.State.CHARGED);
        assertThatThrownBy(() -> charge.startAttempt(PaymentId.newId(), NOW)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anUnsettledPaymentKeepsThePeriodWaitingWithNoNewAttempt() {
        // CANCEL_OWED too: the PG holds the charge until the owed cancel is booked, so no second charge yet.
        for (PaymentStatus unsettled : List.of(PaymentStatus.REQUESTED, PaymentStatus.UNKNOWN,
                PaymentStatus.CANCEL_OWED)) {
            RenewalCharge charge = charging();

            assertThat(charge.settle(unsettled, NOW, DUNNING)).isEqualTo(RenewalCharge.Settled.PENDING);
            assertThat(charge.state()).isEqualTo(RenewalCharge.State.CHARGING);
            assertThatThrownBy(() -> charge.startAttempt(PaymentId.newId(), NOW.plus(Duration.ofDays(30))))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void declinesAreRetriedOneAndThreeDaysAfterTheFirstThenGivenUp() {
        RenewalCharge charge = charging();

        assertThat(charge.settle(PaymentStatus.DECLINED, NOW, DUNNING)).isEqualTo(RenewalCharge.Settled.DECLINED_RETRY);
        assertThat(charge.nextAttemptAt()).isEqualTo(NOW.plus(Duration.ofDays(1)));
        assertThatThrownBy(() -> charge.startAttempt(PaymentId.newId(), NOW.plus(Duration.ofHours(23))))
                .isInstanceOf(IllegalStateException.class);

        Instant secondAt = NOW.plus(Duration.ofDays(1)).plusSeconds(60);
        charge.startAttempt(PaymentId.newId(), secondAt);
        assertThat(charge.settle(PaymentStatus.DECLINED, secondAt, DUNNING))
                .isEqualTo(RenewalCharge.Settled.DECLINED_RETRY);
        assertThat(charge.nextAttemptAt()).isEqualTo(NOW.plus(Duration.ofDays(3)));

        Instant thirdAt = NOW.plus(Duration.ofDays(3));
        charge.startAttempt(PaymentId.newId(), thirdAt);
        assertThat(charge.settle(PaymentStatus.DECLINED, thirdAt, DUNNING))
                .isEqualTo(RenewalCharge.Settled.DECLINED_GAVE_UP);
        assertThat(charge.state()).isEqualTo(RenewalCharge.State.GAVE_UP);
        assertThat(charge.attempt()).isEqualTo(3);
        assertThat(charge.declines()).isEqualTo(3);
    }

    @Test
    void nothingChargedIsDueAgainWithoutCountingAsADecline() {
        for (PaymentStatus nothing : List.of(PaymentStatus.FAILED, PaymentStatus.CANCELED)) {
            RenewalCharge charge = charging();

            assertThat(charge.settle(nothing, NOW, DUNNING)).isEqualTo(RenewalCharge.Settled.NOTHING_CHARGED);
            assertThat(charge.state()).isEqualTo(RenewalCharge.State.DUE);
            assertThat(charge.nextAttemptAt()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
            assertThat(charge.declines()).isZero();
        }
    }

    @Test
    void onlyAnAttemptInFlightCanBeSettled() {
        RenewalCharge due = RenewalCharge.due(SUBSCRIPTION, PERIOD, NOW);

        assertThatThrownBy(() -> due.settle(PaymentStatus.APPROVED, NOW, DUNNING))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(due::orderId).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void dunningRetriesMustBeAscending() {
        assertThatThrownBy(() -> new DunningPolicy(List.of(Duration.ofDays(3), Duration.ofDays(1)), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

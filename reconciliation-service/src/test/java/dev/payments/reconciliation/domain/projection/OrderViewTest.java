package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class OrderViewTest {

    private static final OrderId ORDER = new OrderId(UUID.fromString("0b5f8a3e-6c1d-4f7a-9a55-2d3c4b5a6f70"));
    private static final PaymentId PAYMENT = new PaymentId(UUID.fromString("7d2e9c41-83b0-4a6e-b1f2-5e6d7c8b9a01"));
    private static final Instant T0 = Instant.parse("2026-11-29T07:50:00Z");
    private static final OrderDetails DETAILS = new OrderDetails(new MemberId("member-1"), new Money(15_000, "KRW"),
            "Annual plan");

    @Test
    void anOrderGoesThroughItsLifecycle() {
        OrderView created = OrderView.firstSeen(created(T0), T0);
        Projected<OrderView> pending = created.apply(event(OrderStatus.PAYMENT_PENDING, "OrderPaymentPending", T0.plusSeconds(1)), T0);
        Projected<OrderView> paid = pending.view().apply(event(OrderStatus.PAID, "OrderPaid", T0.plusSeconds(2)), T0);

        assertThat(pending.effect()).isEqualTo(ProjectionEffect.ADVANCED);
        assertThat(paid.effect()).isEqualTo(ProjectionEffect.ADVANCED);
        assertThat(paid.view().status()).isEqualTo(OrderStatus.PAID);
        assertThat(paid.view().details()).isEqualTo(DETAILS);
        assertThat(paid.view().paymentId()).isEqualTo(PAYMENT);
        assertThat(paid.view().bookkeeping().lastEventType()).isEqualTo("OrderPaid");
        assertThat(paid.view().bookkeeping().eventsApplied()).isEqualTo(3);
    }

    @Test
    void aViewCreatedBeforeOrderCreatedGetsItsDetailsWhenItArrivesLate() {
        OrderView paid = OrderView.firstSeen(event(OrderStatus.PAID, "OrderPaid", T0.plusSeconds(2)), T0);
        assertThat(paid.details()).isNull();

        Projected<OrderView> late = paid.apply(created(T0), T0);

        assertThat(late.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(late.view().status()).isEqualTo(OrderStatus.PAID);
        assertThat(late.view().details()).isEqualTo(DETAILS);
        assertThat(late.view().paymentId()).isEqualTo(PAYMENT);
        assertThat(late.view().bookkeeping().lastEventType()).isEqualTo("OrderPaid");
    }

    @Test
    void aLatePendingNeverTakesAPaidOrderBack() {
        OrderView paid = OrderView.firstSeen(event(OrderStatus.PAID, "OrderPaid", T0.plusSeconds(2)), T0);

        Projected<OrderView> late = paid.apply(event(OrderStatus.PAYMENT_PENDING, "OrderPaymentPending", T0), T0);

        assertThat(late.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(late.view().status()).isEqualTo(OrderStatus.PAID);
    }

    @Test
    void paidAndFailedForOneOrderIsAConflict() {
        OrderView paid = OrderView.firstSeen(event(OrderStatus.PAID, "OrderPaid", T0.plusSeconds(2)), T0);

        Projected<OrderView> failed = paid.apply(event(OrderStatus.FAILED, "OrderFailed", T0.plusSeconds(1)), T0);

        assertThat(failed.effect()).isEqualTo(ProjectionEffect.CONFLICT);
        assertThat(failed.view().status()).isEqualTo(OrderStatus.PAID);
        assertThat(failed.view().bookkeeping().conflicts()).isEqualTo(1);
    }

    /** DESIGN.md "States" and docs/decisions/order-states.md: every legal order transition goes to a higher rank. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"CREATED, PAYMENT_PENDING", "PAYMENT_PENDING, PAID", "PAYMENT_PENDING, FAILED", "PAID, CANCELED",
            "PAID, PARTIALLY_REFUNDED", "PAID, REFUNDED", "PARTIALLY_REFUNDED, REFUNDED",
            "PARTIALLY_REFUNDED, CANCELED"})
    void everyLegalTransitionRanksHigher(OrderStatus from, OrderStatus to) {
        assertThat(to.rank()).isGreaterThan(from.rank());
    }

    @Test
    void refundsRaiseTheRefundedTotalWhateverOrderTheirEventsArriveIn() {
        OrderView paid = OrderView.firstSeen(created(T0), T0)
                .apply(event(OrderStatus.PAID, "OrderPaid", T0.plusSeconds(2)), T0).view();
        OrderFact first = refunded(OrderStatus.PARTIALLY_REFUNDED, 4_000, T0.plusSeconds(3));
        OrderFact second = refunded(OrderStatus.PARTIALLY_REFUNDED, 9_000, T0.plusSeconds(4));
        OrderFact rest = refunded(OrderStatus.REFUNDED, 15_000, T0.plusSeconds(5));

        Projected<OrderView> afterFirst = paid.apply(first, T0);
        Projected<OrderView> afterSecond = afterFirst.view().apply(second, T0);
        assertThat(afterSecond.effect()).as("a higher total of the same state").isEqualTo(ProjectionEffect.ADVANCED);
        assertThat(afterSecond.view().refundedAmount()).isEqualTo(9_000);
        assertThat(afterSecond.view().bookkeeping().lastEventAt()).isEqualTo(T0.plusSeconds(4));
        Projected<OrderView> again = afterSecond.view().apply(first, T0);
        assertThat(again.effect()).isEqualTo(ProjectionEffect.STALE);
        assertThat(again.view().refundedAmount()).isEqualTo(9_000);

        OrderView inOrder = again.view().apply(rest, T0).view();
        OrderView backwards = paid.apply(rest, T0).view().apply(second, T0).view().apply(first, T0).view();
        for (OrderView end : new OrderView[] {inOrder, backwards}) {
            assertThat(end.status()).isEqualTo(OrderStatus.REFUNDED);
            assertThat(end.refundedAmount()).isEqualTo(15_000);
            assertThat(end.bookkeeping().lastEventType()).isEqualTo("OrderRefunded");
        }
    }

    @Test
    void aCancelAfterPartialRefundsGivesTheWholeAmountBack() {
        OrderView partly = OrderView.firstSeen(created(T0), T0)
                .apply(refunded(OrderStatus.PARTIALLY_REFUNDED, 4_000, T0.plusSeconds(3)), T0).view();

        OrderView canceled = partly.apply(event(OrderStatus.CANCELED, "OrderCanceled", T0.plusSeconds(4)), T0).view();

        assertThat(canceled.status()).isEqualTo(OrderStatus.CANCELED);
        assertThat(canceled.refundedAmount()).isEqualTo(15_000);
        assertThat(canceled.status().holdsPayment()).isFalse();
        assertThat(partly.status().holdsPayment()).isTrue();
    }

    private static OrderFact created(Instant at) {
        return new OrderFact(new EventRef(UUID.randomUUID(), "OrderCreated", at), ORDER, OrderStatus.CREATED, null,
                null, DETAILS, null);
    }

    private static OrderFact event(OrderStatus status, String type, Instant at) {
        return new OrderFact(new EventRef(UUID.randomUUID(), type, at), ORDER, status, PAYMENT, null, null, null);
    }

    private static OrderFact refunded(OrderStatus status, long total, Instant at) {
        String type = status == OrderStatus.REFUNDED ? "OrderRefunded" : "OrderPartiallyRefunded";
        return new OrderFact(new EventRef(UUID.randomUUID(), type, at), ORDER, status, PAYMENT, null, null,
                new Money(total, "KRW"));
    }
}

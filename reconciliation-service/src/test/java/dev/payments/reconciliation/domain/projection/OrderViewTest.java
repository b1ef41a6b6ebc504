package dev.payments.reconciliation.domain.projection;

import dev.payments.reconciliation.domain.shared.Money;
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

    /** DESIGN.md "States": every legal order transition goes to a higher rank. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"CREATED, PAYMENT_PENDING", "PAYMENT_PENDING, PAID", "PAYMENT_PENDING, FAILED", "PAID, CANCELED"})
    void everyLegalTransitionRanksHigher(OrderStatus from, OrderStatus to) {
        assertThat(to.rank()).isGreaterThan(from.rank());
    }

    private static OrderFact created(Instant at) {
        return new OrderFact(new EventRef(UUID.randomUUID(), "OrderCreated", at), ORDER, OrderStatus.CREATED, null,
                null, DETAILS);
    }

    private static OrderFact event(OrderStatus status, String type, Instant at) {
        return new OrderFact(new EventRef(UUID.randomUUID(), type, at), ORDER, status, PAYMENT, null, null);
    }
}

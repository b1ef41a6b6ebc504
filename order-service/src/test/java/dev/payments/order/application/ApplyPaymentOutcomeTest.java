package dev.payments.order.application;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPartiallyRefunded;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.OrderCanceled;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import dev.payments.order.domain.OrderStatus;
import dev.payments.order.domain.PaymentId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.order.domain.OrderTestData.anOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

/** The consumer side of the contract: the golden payment events, parsed as the listener parses them, move orders. */
class ApplyPaymentOutcomeTest {

    private static final OrderId ORDER = new OrderId(GoldenEvents.ORDER_ID);
    private static final PaymentId PAYMENT = new PaymentId(GoldenEvents.PAYMENT_ID);

    private final InMemoryOrders orders = new InMemoryOrders();
    private final List<OrderEvent> published = new ArrayList<>();
    private final ApplyPaymentOutcome applyPaymentOutcome = new ApplyPaymentOutcome(orders, published::add,
            new TransactionTemplate(mock(PlatformTransactionManager.class)),
            Clock.fixed(Instant.parse("2026-11-29T08:00:00Z"), ZoneOffset.UTC));

    @Test
    void paymentRequestedPutsTheOrderInPaymentPending() {
        given(OrderStatus.CREATED);

        apply(EventType.PAYMENT_REQUESTED);

        assertThat(status()).isEqualTo(OrderStatus.PAYMENT_PENDING);
        assertThat(published).containsExactly(new OrderPaymentPending(ORDER.value(), PAYMENT.value()));
    }

    @ParameterizedTest
    @EnumSource(value = EventType.class, names = {"REFUND_REQUESTED", "REFUND_FAILED", "REFUND_UNKNOWN"})
    void aRefundNotBookedByThePgLeavesThePaidOrderPaidAndPublishesNothing(EventType type) {
        given(OrderStatus.PAID);

        apply(type);

        assertThat(status()).isEqualTo(OrderStatus.PAID);
        assertThat(published).isEmpty();
        assertThat(orders.updates).isZero();
    }

    @Test
    void aSucceededPartialRefundPartiallyRefundsThePaidOrderOnce() {
        given(OrderStatus.PAID);

        apply(EventType.REFUND_SUCCEEDED);
        apply(EventType.REFUND_SUCCEEDED);

        assertThat(status()).isEqualTo(OrderStatus.PARTIALLY_REFUNDED);
        assertThat(orders.findById(ORDER).orElseThrow().refunded()).hasValueSatisfying(
                refunded -> assertThat(refunded.amount()).isEqualTo(4_000));
        assertThat(published).containsExactly(
                new OrderPartiallyRefunded(ORDER.value(), PAYMENT.value(), 4_000, GoldenEvents.AMOUNT, "KRW"));
    }

    @Test
    void aRefundAheadOfItsApprovalIsStoredAndPublishedWithTheApproval() {
        given(OrderStatus.PAYMENT_PENDING);

        apply(EventType.REFUND_SUCCEEDED);
        assertThat(published).isEmpty();
        assertThat(orders.updates).as("the total is stored, without an event").isEqualTo(1);
        apply(EventType.PAYMENT_APPROVED);

        assertThat(status()).isEqualTo(OrderStatus.PARTIALLY_REFUNDED);
        assertThat(published).containsExactly(new OrderPaid(ORDER.value(), PAYMENT.value()),
                new OrderPartiallyRefunded(ORDER.value(), PAYMENT.value(), 4_000, GoldenEvents.AMOUNT, "KRW"));
    }

    @Test
    void paymentApprovedPaysTheOrder() {
        given(OrderStatus.PAYMENT_PENDING);

        apply(EventType.PAYMENT_APPROVED);

        assertThat(status()).isEqualTo(OrderStatus.PAID);
        assertThat(published).containsExactly(new OrderPaid(ORDER.value(), PAYMENT.value()));
    }

    @Test
    void paymentDeclinedAndFailedFailTheOrder() {
        given(OrderStatus.PAYMENT_PENDING);
        apply(EventType.PAYMENT_DECLINED);
        assertThat(published).containsExactly(new OrderFailed(ORDER.value(), PAYMENT.value(), "PAYMENT_DECLINED"));

        published.clear();
        given(OrderStatus.PAYMENT_PENDING);
        apply(EventType.PAYMENT_FAILED);
        assertThat(status()).isEqualTo(OrderStatus.FAILED);
        assertThat(published).containsExactly(new OrderFailed(ORDER.value(), PAYMENT.value(), "PAYMENT_FAILED"));
    }

    @Test
    void paymentUnknownLeavesTheOrderWaiting() {
        given(OrderStatus.PAYMENT_PENDING);

        apply(EventType.PAYMENT_UNKNOWN);

        assertThat(status()).isEqualTo(OrderStatus.PAYMENT_PENDING);
        assertThat(published).isEmpty();
        assertThat(orders.updates).isZero();
    }

    @Test
    void paymentCanceledCancelsAPaidOrderAndFailsAWaitingOne() {
        given(OrderStatus.PAID);
        apply(EventType.PAYMENT_CANCELED);
        assertThat(status()).isEqualTo(OrderStatus.CANCELED);
        assertThat(published).containsExactly(new OrderCanceled(ORDER.value(), PAYMENT.value(), "COMPENSATION"));

        published.clear();
        given(OrderStatus.PAYMENT_PENDING);
        apply(EventType.PAYMENT_CANCELED);
        assertThat(status()).isEqualTo(OrderStatus.FAILED);
        assertThat(published).containsExactly(new OrderFailed(ORDER.value(), PAYMENT.value(), "PAYMENT_CANCELED"));
    }

    @Test
    void theSameOutcomeTwiceChangesTheOrderOnce() {
        given(OrderStatus.PAYMENT_PENDING);

        apply(EventType.PAYMENT_APPROVED);
        apply(EventType.PAYMENT_APPROVED);

        assertThat(published).hasSize(1);
        assertThat(orders.updates).isEqualTo(1);
    }

    @Test
    void everyPublishedEventHasTheGoldenShape() {
        given(OrderStatus.CREATED);
        apply(EventType.PAYMENT_REQUESTED);
        apply(EventType.PAYMENT_APPROVED);
        apply(EventType.REFUND_SUCCEEDED);
        apply(EventType.PAYMENT_CANCELED);

        assertThat(published).hasSize(4);
        for (OrderEvent event : published) {
            String json = EventJson.write(EventEnvelope.wrap(event, Instant.now(), null));
            assertThat(GoldenEvents.shapeDifferences(json)).as(json).isEmpty();
        }
    }

    @Test
    void anEventForAnUnknownOrderIsRefused() {
        assertThatThrownBy(() -> apply(EventType.PAYMENT_APPROVED)).isInstanceOf(OrderNotFoundException.class);
        assertThat(published).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = EventType.class, names = "PAYMENT_.*", mode = EnumSource.Mode.MATCH_ANY)
    void aRenewalChargesEventIsNoOrdersBusiness(EventType type) {
        // No order of ours, or one with the same id: a renewal changes neither and is not refused.
        applyPaymentOutcome.apply(renewal(type));
        given(OrderStatus.PAYMENT_PENDING);
        applyPaymentOutcome.apply(renewal(type));

        assertThat(status()).isEqualTo(OrderStatus.PAYMENT_PENDING);
        assertThat(published).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = EventType.class, names = "PAYMENT_.*", mode = EnumSource.Mode.MATCH_ANY)
    void onlyARenewalChargesEventIsPassedOverBeforeAnyTransaction(EventType type) {
        assertThat(ApplyPaymentOutcome.concerns(renewal(type))).isFalse();
        assertThat(ApplyPaymentOutcome.concerns(event(type))).isTrue();
    }

    @Test
    void anOrderEventIsNotAPaymentOutcome() {
        given(OrderStatus.CREATED);

        assertThatThrownBy(() -> applyPaymentOutcome.apply(event(EventType.ORDER_PAID)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(status()).isEqualTo(OrderStatus.CREATED);
    }

    private void given(OrderStatus status) {
        orders.insert(anOrder().withId(ORDER).in(status, PAYMENT).build());
    }

    private void apply(EventType type) {
        applyPaymentOutcome.apply(event(type));
    }

    private static DomainEvent event(EventType type) {
        return EventJson.read(GoldenEvents.json(type)).event();
    }

    private static DomainEvent renewal(EventType type) {
        return EventJson.read(GoldenEvents.json(type).replace("\"purpose\" : \"ORDER\"", "\"purpose\" : \"RENEWAL\""))
                .event();
    }

    private OrderStatus status() {
        return orders.findById(ORDER).orElseThrow().status();
    }

    private static final class InMemoryOrders implements Orders {

        private final Map<UUID, Order> rows = new HashMap<>();
        private int updates;

        @Override
        public void insert(Order order) {
            rows.put(order.id().value(), order);
        }

        @Override
        public void update(Order order) {
            updates++;
            rows.put(order.id().value(), order);
        }

        @Override
        public Optional<Order> findById(OrderId id) {
            return Optional.ofNullable(rows.get(id.value()));
        }

        @Override
        public Optional<Order> lockById(OrderId id) {
            return findById(id);
        }
    }
}

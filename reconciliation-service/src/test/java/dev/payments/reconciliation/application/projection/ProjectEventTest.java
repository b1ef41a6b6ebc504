package dev.payments.reconciliation.application.projection;

import dev.payments.contracts.AggregateType;
import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPartiallyRefunded;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.OrderRefunded;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;
import dev.payments.reconciliation.application.queries.OrderReport;
import dev.payments.reconciliation.application.queries.PaymentReport;
import dev.payments.reconciliation.domain.projection.OrderDetails;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.ProjectionEffect;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.queries.BooksSummary;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static dev.payments.contracts.GoldenEvents.AMOUNT;
import static dev.payments.contracts.GoldenEvents.CURRENCY;
import static dev.payments.contracts.GoldenEvents.MEMBER_ID;
import static dev.payments.contracts.GoldenEvents.ORDER_ID;
import static dev.payments.contracts.GoldenEvents.PAYMENT_ID;
import static org.assertj.core.api.Assertions.assertThat;

class ProjectEventTest {

    private static final Instant T0 = Instant.parse("2026-11-29T07:50:00Z");
    private static final Instant NOW = T0.plusSeconds(60);

    private final InMemoryProjection projection = new InMemoryProjection(Clock.fixed(NOW, ZoneOffset.UTC));

    /** A new event type in contracts must be handled here before this service can be built. */
    @ParameterizedTest
    @EnumSource(EventType.class)
    void everyEventTypeOfTheContractIsProjectedFromItsGoldenSample(EventType type) {
        ProjectionEffect effect = projection.projectEvent.project(GoldenEvents.eventId(type), T0, GoldenEvents.sample(type));

        assertThat(effect).isEqualTo(ProjectionEffect.CREATED);
        assertThat(projection.history.all()).singleElement().satisfies(e -> {
            assertThat(e.event().type()).isEqualTo(type.wireName());
            assertThat(e.orderId()).isEqualTo(new OrderId(ORDER_ID));
        });
        if (type.wireName().startsWith("Refund")) {
            assertThat(projection.refunds.find(GoldenEvents.REFUND_ID)).hasValueSatisfying(refund ->
                    assertThat(refund.paymentId()).isEqualTo(new PaymentId(PAYMENT_ID)));
        } else if (type.aggregateType() == AggregateType.PAYMENT) {
            assertThat(projection.payments.find(new PaymentId(PAYMENT_ID))).isPresent();
        } else {
            assertThat(projection.orders.find(new OrderId(ORDER_ID))).isPresent();
        }
    }

    @Test
    void aRefundsLaterStateWinsWhateverOrderItsEventsArriveIn() {
        project(EventType.REFUND_SUCCEEDED, T0.plusSeconds(2));
        ProjectionEffect stale = projection.projectEvent.project(UUID.randomUUID(), T0.plusSeconds(1),
                GoldenEvents.sample(EventType.REFUND_UNKNOWN));

        assertThat(stale).isEqualTo(ProjectionEffect.STALE);
        assertThat(projection.refunds.find(GoldenEvents.REFUND_ID)).hasValueSatisfying(refund -> {
            assertThat(refund.status()).isEqualTo(RefundView.Status.SUCCEEDED);
            assertThat(refund.pgTransactionKey()).isEqualTo("txn_0002");
            assertThat(refund.amount().amount()).isEqualTo(4_000);
        });
    }

    @Test
    void aPaymentIsShownWithItsRefundsAndWhatTheSucceededOnesGaveBack() {
        project(EventType.PAYMENT_APPROVED, T0);
        project(EventType.REFUND_REQUESTED, T0.plusSeconds(1));
        project(EventType.REFUND_SUCCEEDED, T0.plusSeconds(2));

        PaymentReport report = projection.showPayment.show(new PaymentId(PAYMENT_ID)).orElseThrow();

        assertThat(report.refunds()).singleElement().satisfies(refund -> {
            assertThat(refund.refundId()).isEqualTo(GoldenEvents.REFUND_ID);
            assertThat(refund.status()).isEqualTo(RefundView.Status.SUCCEEDED);
        });
        assertThat(report.refunded()).isEqualTo(4_000);
        assertThat(report.payment().status()).isEqualTo(PaymentStatus.APPROVED);
    }

    @Test
    void goldenSamplesMapToTheStatusesAndFactsTheyDescribe() {
        project(EventType.PAYMENT_APPROVED, T0);
        PaymentView approved = projection.payments.find(new PaymentId(PAYMENT_ID)).orElseThrow();
        assertThat(approved.status()).isEqualTo(PaymentStatus.APPROVED);
        assertThat(approved.pgTransactionKey()).isEqualTo("txn_0001");
        assertThat(approved.amount().amount()).isEqualTo(AMOUNT);
        assertThat(approved.amount().currency()).isEqualTo(CURRENCY);
        assertThat(approved.memberId().value()).isEqualTo(MEMBER_ID);

        project(EventType.PAYMENT_CANCELED, T0.plusSeconds(1));
        PaymentView canceled = projection.payments.find(new PaymentId(PAYMENT_ID)).orElseThrow();
        assertThat(canceled.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(canceled.statusReason()).isEqualTo("COMPENSATION");
        assertThat(canceled.canceledAt()).isNotNull();

        project(EventType.ORDER_FAILED, T0);
        OrderView failed = projection.orders.find(new OrderId(ORDER_ID)).orElseThrow();
        assertThat(failed.status()).isEqualTo(OrderStatus.FAILED);
        assertThat(failed.statusReason()).isEqualTo("PAYMENT_DECLINED");
        assertThat(failed.paymentId()).isEqualTo(new PaymentId(PAYMENT_ID));
        assertThat(failed.details()).isNull();
    }

    @Test
    void aPaymentEndsTheSameWhateverOrderItsEventsArriveIn() {
        List<Timed> lifecycle = List.of(
                timed(new PaymentRequested(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "pk_1", PaymentPurpose.ORDER), T0),
                timed(new PaymentUnknown(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "PG_READ_TIMEOUT", PaymentPurpose.ORDER), T0.plusSeconds(1)),
                timed(new PaymentApproved(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "txn_1", T0.plusSeconds(2), PaymentPurpose.ORDER), T0.plusSeconds(2)),
                timed(new PaymentCanceled(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "COMPENSATION", T0.plusSeconds(3), PaymentPurpose.ORDER), T0.plusSeconds(3)));

        Set<PaymentView> outcomes = new HashSet<>();
        for (List<Timed> arrival : permutations(lifecycle)) {
            InMemoryProjection fresh = new InMemoryProjection(Clock.fixed(NOW, ZoneOffset.UTC));
            arrival.forEach(e -> fresh.projectEvent.project(e.id(), e.at(), e.event()));
            outcomes.add(fresh.payments.find(new PaymentId(PAYMENT_ID)).orElseThrow());
        }

        assertThat(outcomes).singleElement().satisfies(view -> {
            assertThat(view.status()).isEqualTo(PaymentStatus.CANCELED);
            assertThat(view.pgTransactionKey()).isEqualTo("txn_1");
            assertThat(view.approvedAt()).isEqualTo(T0.plusSeconds(2));
            assertThat(view.canceledAt()).isEqualTo(T0.plusSeconds(3));
            assertThat(view.bookkeeping().lastEventType()).isEqualTo("PaymentCanceled");
            assertThat(view.bookkeeping().eventsApplied()).isEqualTo(4);
        });
    }

    @Test
    void anOrderEndsTheSameWhateverOrderItsEventsArriveIn() {
        List<Timed> lifecycle = List.of(
                timed(new OrderCreated(ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "Annual plan"), T0),
                timed(new OrderPaymentPending(ORDER_ID, PAYMENT_ID), T0.plusSeconds(1)),
                timed(new OrderPaid(ORDER_ID, PAYMENT_ID), T0.plusSeconds(2)),
                timed(new OrderCanceled(ORDER_ID, PAYMENT_ID, "CUSTOMER_REQUEST"), T0.plusSeconds(3)));

        Set<OrderView> outcomes = new HashSet<>();
        for (List<Timed> arrival : permutations(lifecycle)) {
            InMemoryProjection fresh = new InMemoryProjection(Clock.fixed(NOW, ZoneOffset.UTC));
            arrival.forEach(e -> fresh.projectEvent.project(e.id(), e.at(), e.event()));
            outcomes.add(fresh.orders.find(new OrderId(ORDER_ID)).orElseThrow());
        }

        assertThat(outcomes).singleElement().satisfies(view -> {
            assertThat(view.status()).isEqualTo(OrderStatus.CANCELED);
            assertThat(view.statusReason()).isEqualTo("CUSTOMER_REQUEST");
            assertThat(view.details()).extracting(OrderDetails::orderName).isEqualTo("Annual plan");
            assertThat(view.paymentId()).isEqualTo(new PaymentId(PAYMENT_ID));
        });
    }

    @Test
    void anOrderRefundedInPartsEndsRefundedWithItsTotalWhateverOrderItsEventsArriveIn() {
        List<Timed> lifecycle = List.of(
                timed(new OrderCreated(ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "Annual plan"), T0),
                timed(new OrderPaymentPending(ORDER_ID, PAYMENT_ID), T0.plusSeconds(1)),
                timed(new OrderPaid(ORDER_ID, PAYMENT_ID), T0.plusSeconds(2)),
                timed(new OrderPartiallyRefunded(ORDER_ID, PAYMENT_ID, 4_000, AMOUNT, CURRENCY), T0.plusSeconds(3)),
                timed(new OrderPartiallyRefunded(ORDER_ID, PAYMENT_ID, 9_000, AMOUNT, CURRENCY), T0.plusSeconds(4)),
                timed(new OrderRefunded(ORDER_ID, PAYMENT_ID, AMOUNT, CURRENCY), T0.plusSeconds(5)));

        Set<OrderView> outcomes = new HashSet<>();
        for (List<Timed> arrival : permutations(lifecycle)) {
            InMemoryProjection fresh = new InMemoryProjection(Clock.fixed(NOW, ZoneOffset.UTC));
            arrival.forEach(e -> fresh.projectEvent.project(e.id(), e.at(), e.event()));
            outcomes.add(fresh.orders.find(new OrderId(ORDER_ID)).orElseThrow());
        }

        assertThat(outcomes).singleElement().satisfies(view -> {
            assertThat(view.status()).isEqualTo(OrderStatus.REFUNDED);
            assertThat(view.refundedAmount()).isEqualTo(AMOUNT);
            assertThat(view.bookkeeping().lastEventType()).isEqualTo("OrderRefunded");
            assertThat(view.bookkeeping().conflicts()).isZero();
        });
    }

    @Test
    void paymentEventsSeenBeforeTheirOrderAreShownWithTheOrder() {
        project(EventType.PAYMENT_REQUESTED, T0);
        project(EventType.PAYMENT_APPROVED, T0.plusSeconds(1));

        OrderReport before = projection.showOrder.show(new OrderId(ORDER_ID)).orElseThrow();
        assertThat(before.order()).isEmpty();
        assertThat(before.payments()).singleElement()
                .extracting(PaymentView::status).isEqualTo(PaymentStatus.APPROVED);

        project(EventType.ORDER_CREATED, T0.minusSeconds(1));
        project(EventType.ORDER_PAYMENT_PENDING, T0);
        project(EventType.ORDER_PAID, T0.plusSeconds(2));

        OrderReport after = projection.showOrder.show(new OrderId(ORDER_ID)).orElseThrow();
        assertThat(after.order()).get().extracting(OrderView::status).isEqualTo(OrderStatus.PAID);
        assertThat(after.history()).extracting(e -> e.event().type()).containsExactly(
                "OrderCreated", "PaymentRequested", "OrderPaymentPending", "PaymentApproved", "OrderPaid");
    }

    @Test
    void historyTellsWhatEachEventDid() {
        project(EventType.PAYMENT_APPROVED, T0.plusSeconds(1));
        project(EventType.PAYMENT_REQUESTED, T0);

        PaymentReport report = projection.showPayment.show(new PaymentId(PAYMENT_ID)).orElseThrow();

        assertThat(report.history()).extracting(e -> e.event().type() + ":" + e.effect())
                .containsExactly("PaymentRequested:STALE", "PaymentApproved:CREATED");
        assertThat(report.history()).allSatisfy(e -> assertThat(e.receivedAt()).isEqualTo(NOW));
    }

    @Test
    void anEventWithoutOccurredAtIsStillProjectedAtItsTimeOfReceipt() {
        projection.projectEvent.project(UUID.randomUUID(), null, GoldenEvents.sample(EventType.PAYMENT_UNKNOWN));

        assertThat(projection.payments.find(new PaymentId(PAYMENT_ID))).get()
                .extracting(view -> view.bookkeeping().lastEventAt()).isEqualTo(NOW);
    }

    @Test
    void unseenPaymentsAndOrdersAreNotFound() {
        assertThat(projection.showPayment.show(new PaymentId(UUID.randomUUID()))).isEmpty();
        assertThat(projection.showOrder.show(new OrderId(UUID.randomUUID()))).isEmpty();
    }

    @Test
    void theSummaryCountsTheHappyPath() {
        project(EventType.ORDER_CREATED, T0);
        project(EventType.PAYMENT_REQUESTED, T0.plusSeconds(1));
        project(EventType.ORDER_PAYMENT_PENDING, T0.plusSeconds(1));
        project(EventType.PAYMENT_APPROVED, T0.plusSeconds(2));
        project(EventType.ORDER_PAID, T0.plusSeconds(2));

        BooksSummary summary = projection.summarizeBooks.summarize();

        assertThat(summary.approvals()).isEqualTo(1);
        assertThat(summary.paidOrders()).isEqualTo(1);
        assertThat(summary.cancellations()).isZero();
        assertThat(summary.unresolved()).isZero();
        assertThat(summary.totalPayments()).isEqualTo(1);
        assertThat(summary.totalOrders()).isEqualTo(1);
    }

    private void project(EventType type, Instant occurredAt) {
        projection.projectEvent.project(GoldenEvents.eventId(type), occurredAt, GoldenEvents.sample(type));
    }

    private record Timed(UUID id, Instant at, DomainEvent event) {
    }

    private static Timed timed(DomainEvent event, Instant at) {
        return new Timed(UUID.randomUUID(), at, event);
    }

    private static <T> List<List<T>> permutations(List<T> items) {
        if (items.isEmpty()) {
            return List.of(List.of());
        }
        List<List<T>> all = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            List<T> rest = new ArrayList<>(items);
            T first = rest.remove(i);
            for (List<T> tail : permutations(rest)) {
                List<T> permutation = new ArrayList<>();
                permutation.add(first);
                permutation.addAll(tail);
                all.add(permutation);
            }
        }
        return all;
    }
}

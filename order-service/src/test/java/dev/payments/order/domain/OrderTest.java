package dev.payments.order.domain;

import dev.payments.contracts.Money;
import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPartiallyRefunded;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.OrderRefunded;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.payments.order.domain.OrderTestData.T0;
import static dev.payments.order.domain.OrderTestData.anOrder;
import static dev.payments.order.domain.OrderTestData.newPaymentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderTest {

    private static final Instant LATER = T0.plusSeconds(60);
    private static final Money PRICE = new Money(15_000, "KRW");

    /**
     * The order's verbs. REFUND_PART: a refund bringing the payment's refunds to 6,000 (more than a PARTIALLY_REFUNDED
     * order's 4,000 here); REFUND_REST: one bringing them to the whole price.
     */
    enum Verb { START_PAYMENT, MARK_PAID, MARK_FAILED, PAYMENT_CANCELED, PAYMENT_UNKNOWN, REFUND_PART, REFUND_REST }

    private static final Money PART = new Money(6_000, "KRW");

    /** Whether the outcome is for the order's current payment attempt or for some other payment. */
    enum Payment { CURRENT, OTHER }

    /**
     * Every state x every verb x (current payment | another payment). {@code expected}: the new state and the one
     * event written, {@code NO_OP} (state and payment unchanged, no event), {@code KEPT} (a refund ahead of its
     * approval: no transition, no event, its total remembered), or {@code ILLEGAL} (named exception, nothing changed).
     * CREATED has no current payment, so only OTHER applies.
     */
    @ParameterizedTest(name = "{0} + {1}({2}) -> {3} {4}")
    @CsvSource({
            "CREATED,         START_PAYMENT,    OTHER,   PAYMENT_PENDING, OrderPaymentPending",
            "CREATED,         MARK_PAID,        OTHER,   ILLEGAL,",
            "CREATED,         MARK_FAILED,      OTHER,   ILLEGAL,",
            "CREATED,         PAYMENT_CANCELED, OTHER,   NO_OP,",
            "CREATED,         PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",

            "PAYMENT_PENDING, START_PAYMENT,    CURRENT, NO_OP,",
            "PAYMENT_PENDING, START_PAYMENT,    OTHER,   ILLEGAL,",
            "PAYMENT_PENDING, MARK_PAID,        CURRENT, PAID,            OrderPaid",
            "PAYMENT_PENDING, MARK_PAID,        OTHER,   ILLEGAL,",
            "PAYMENT_PENDING, MARK_FAILED,      CURRENT, FAILED,          OrderFailed",
            "PAYMENT_PENDING, MARK_FAILED,      OTHER,   ILLEGAL,",
            "PAYMENT_PENDING, PAYMENT_CANCELED, CURRENT, FAILED,          OrderFailed",
            "PAYMENT_PENDING, PAYMENT_CANCELED, OTHER,   NO_OP,",
            "PAYMENT_PENDING, PAYMENT_UNKNOWN,  CURRENT, NO_OP,",
            "PAYMENT_PENDING, PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",

            "PAID,            START_PAYMENT,    CURRENT, NO_OP,",
            "PAID,            START_PAYMENT,    OTHER,   ILLEGAL,",
            "PAID,            MARK_PAID,        CURRENT, NO_OP,",
            "PAID,            MARK_PAID,        OTHER,   ILLEGAL,",
            "PAID,            MARK_FAILED,      CURRENT, ILLEGAL,",
            "PAID,            MARK_FAILED,      OTHER,   ILLEGAL,",
            "PAID,            PAYMENT_CANCELED, CURRENT, CANCELED,        OrderCanceled",
            "PAID,            PAYMENT_CANCELED, OTHER,   NO_OP,",
            "PAID,            PAYMENT_UNKNOWN,  CURRENT, NO_OP,",
            "PAID,            PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",

            "FAILED,          START_PAYMENT,    CURRENT, NO_OP,",
            "FAILED,          START_PAYMENT,    OTHER,   PAYMENT_PENDING, OrderPaymentPending",
            "FAILED,          MARK_PAID,        CURRENT, ILLEGAL,",
            "FAILED,          MARK_PAID,        OTHER,   ILLEGAL,",
            "FAILED,          MARK_FAILED,      CURRENT, NO_OP,",
            "FAILED,          MARK_FAILED,      OTHER,   ILLEGAL,",
            "FAILED,          PAYMENT_CANCELED, CURRENT, NO_OP,",
            "FAILED,          PAYMENT_CANCELED, OTHER,   NO_OP,",
            "FAILED,          PAYMENT_UNKNOWN,  CURRENT, NO_OP,",
            "FAILED,          PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",

            "CANCELED,        START_PAYMENT,    CURRENT, NO_OP,",
            "CANCELED,        START_PAYMENT,    OTHER,   ILLEGAL,",
            "CANCELED,        MARK_PAID,        CURRENT, NO_OP,",
            "CANCELED,        MARK_PAID,        OTHER,   ILLEGAL,",
            "CANCELED,        MARK_FAILED,      CURRENT, ILLEGAL,",
            "CANCELED,        MARK_FAILED,      OTHER,   ILLEGAL,",
            "CANCELED,        PAYMENT_CANCELED, CURRENT, NO_OP,",
            "CANCELED,        PAYMENT_CANCELED, OTHER,   NO_OP,",
            "CANCELED,        PAYMENT_UNKNOWN,  CURRENT, NO_OP,",
            "CANCELED,        PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",
            "CANCELED,        REFUND_PART,      CURRENT, NO_OP,",
            "CANCELED,        REFUND_PART,      OTHER,   NO_OP,",
            "CANCELED,        REFUND_REST,      CURRENT, NO_OP,",
            "CANCELED,        REFUND_REST,      OTHER,   NO_OP,",

            "CREATED,         REFUND_PART,      OTHER,   NO_OP,",
            "CREATED,         REFUND_REST,      OTHER,   NO_OP,",
            "PAYMENT_PENDING, REFUND_PART,      CURRENT, KEPT,",
            "PAYMENT_PENDING, REFUND_PART,      OTHER,   NO_OP,",
            "PAYMENT_PENDING, REFUND_REST,      CURRENT, KEPT,",
            "PAYMENT_PENDING, REFUND_REST,      OTHER,   NO_OP,",
            "PAID,            REFUND_PART,      CURRENT, PARTIALLY_REFUNDED, OrderPartiallyRefunded",
            "PAID,            REFUND_PART,      OTHER,   NO_OP,",
            "PAID,            REFUND_REST,      CURRENT, REFUNDED,        OrderRefunded",
            "PAID,            REFUND_REST,      OTHER,   NO_OP,",
            "FAILED,          REFUND_PART,      CURRENT, NO_OP,",
            "FAILED,          REFUND_PART,      OTHER,   NO_OP,",
            "FAILED,          REFUND_REST,      CURRENT, NO_OP,",
            "FAILED,          REFUND_REST,      OTHER,   NO_OP,",

            "PARTIALLY_REFUNDED, START_PAYMENT,    CURRENT, NO_OP,",
            "PARTIALLY_REFUNDED, START_PAYMENT,    OTHER,   ILLEGAL,",
            "PARTIALLY_REFUNDED, MARK_PAID,        CURRENT, NO_OP,",
            "PARTIALLY_REFUNDED, MARK_PAID,        OTHER,   ILLEGAL,",
            "PARTIALLY_REFUNDED, MARK_FAILED,      CURRENT, ILLEGAL,",
            "PARTIALLY_REFUNDED, MARK_FAILED,      OTHER,   ILLEGAL,",
            "PARTIALLY_REFUNDED, PAYMENT_CANCELED, CURRENT, CANCELED,     OrderCanceled",
            "PARTIALLY_REFUNDED, PAYMENT_CANCELED, OTHER,   NO_OP,",
            "PARTIALLY_REFUNDED, PAYMENT_UNKNOWN,  CURRENT, NO_OP,",
            "PARTIALLY_REFUNDED, PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",
            "PARTIALLY_REFUNDED, REFUND_PART,      CURRENT, PARTIALLY_REFUNDED, OrderPartiallyRefunded",
            "PARTIALLY_REFUNDED, REFUND_PART,      OTHER,   NO_OP,",
            "PARTIALLY_REFUNDED, REFUND_REST,      CURRENT, REFUNDED,     OrderRefunded",
            "PARTIALLY_REFUNDED, REFUND_REST,      OTHER,   NO_OP,",

            "REFUNDED,        START_PAYMENT,    CURRENT, NO_OP,",
            "REFUNDED,        START_PAYMENT,    OTHER,   ILLEGAL,",
            "REFUNDED,        MARK_PAID,        CURRENT, NO_OP,",
            "REFUNDED,        MARK_PAID,        OTHER,   ILLEGAL,",
            "REFUNDED,        MARK_FAILED,      CURRENT, ILLEGAL,",
            "REFUNDED,        MARK_FAILED,      OTHER,   ILLEGAL,",
            "REFUNDED,        PAYMENT_CANCELED, CURRENT, NO_OP,",
            "REFUNDED,        PAYMENT_CANCELED, OTHER,   NO_OP,",
            "REFUNDED,        PAYMENT_UNKNOWN,  CURRENT, NO_OP,",
            "REFUNDED,        PAYMENT_UNKNOWN,  OTHER,   ILLEGAL,",
            "REFUNDED,        REFUND_PART,      CURRENT, NO_OP,",
            "REFUNDED,        REFUND_PART,      OTHER,   NO_OP,",
            "REFUNDED,        REFUND_REST,      CURRENT, NO_OP,",
            "REFUNDED,        REFUND_REST,      OTHER,   NO_OP,",
    })
    void stateMachine(OrderStatus from, Verb verb, Payment which, String expected, String eventType) {
        PaymentId current = newPaymentId();
        Order order = anOrder().in(from, current).build();
        PaymentId offered = which == Payment.CURRENT ? current : newPaymentId();
        Optional<PaymentId> paymentBefore = order.paymentId();
        Optional<Money> refundedBefore = order.refunded();
        Instant updatedBefore = order.updatedAt();

        if ("ILLEGAL".equals(expected)) {
            assertThatThrownBy(() -> apply(order, verb, offered))
                    .isInstanceOf(IllegalOrderTransitionException.class)
                    .hasMessageContaining(order.id().toString());
            assertUnchanged(order, from, paymentBefore, updatedBefore);
            assertThat(order.refunded()).isEqualTo(refundedBefore);
        } else if ("NO_OP".equals(expected)) {
            assertThat(apply(order, verb, offered)).isEmpty();
            assertUnchanged(order, from, paymentBefore, updatedBefore);
            assertThat(order.refunded()).isEqualTo(refundedBefore);
        } else if ("KEPT".equals(expected)) {
            assertThat(apply(order, verb, offered)).isEmpty();
            assertUnchanged(order, from, paymentBefore, updatedBefore);
            assertThat(order.refunded()).contains(verb == Verb.REFUND_PART ? PART : PRICE);
        } else {
            List<OrderEvent> events = apply(order, verb, offered);
            assertThat(order.status()).isEqualTo(OrderStatus.valueOf(expected));
            assertThat(order.paymentId()).contains(offered);
            assertThat(order.updatedAt()).isEqualTo(LATER);
            assertThat(events).singleElement().satisfies(event -> {
                assertThat(event.getClass().getSimpleName()).isEqualTo(eventType);
                assertThat(event.orderId()).isEqualTo(order.id().value());
            });
        }
    }

    @Test
    void theTableCoversEveryStateVerbAndPayment() throws NoSuchMethodException {
        String[] rows = OrderTest.class.getDeclaredMethod("stateMachine", OrderStatus.class, Verb.class, Payment.class,
                String.class, String.class).getAnnotation(CsvSource.class).value();
        Set<String> covered = Arrays.stream(rows)
                .map(row -> Arrays.stream(row.split(",")).limit(3).map(String::trim).collect(Collectors.joining(" ")))
                .collect(Collectors.toSet());
        for (OrderStatus state : OrderStatus.values()) {
            for (Verb verb : Verb.values()) {
                for (Payment payment : Payment.values()) {
                    if (state == OrderStatus.CREATED && payment == Payment.CURRENT) {
                        continue;
                    }
                    assertThat(covered).contains(state + " " + verb + " " + payment);
                }
            }
        }
        assertThat(rows).hasSize(covered.size());
    }

    @Test
    void placeRecordsTheOrderCreatedFacts() {
        OrderId id = OrderId.newId();
        Order order = Order.place(id, new MemberId("member-7"), PRICE, "Annual plan", T0);

        assertThat(order.status()).isEqualTo(OrderStatus.CREATED);
        assertThat(order.paymentId()).isEmpty();
        assertThat(order.created()).isEqualTo(new OrderCreated(id.value(), "member-7", 15_000, "KRW", "Annual plan"));
    }

    @Test
    void eventsCarryThePaymentAndTheReason() {
        PaymentId payment = newPaymentId();
        Order pending = anOrder().in(OrderStatus.PAYMENT_PENDING, payment).build();
        UUID orderId = pending.id().value();

        assertThat(pending.paymentCanceled(payment, "COMPENSATION", LATER))
                .contains(new OrderFailed(orderId, payment.value(), Order.PAYMENT_CANCELED));
        assertThat(pending.statusReason()).contains(Order.PAYMENT_CANCELED);

        PaymentId retry = newPaymentId();
        assertThat(pending.startPayment(retry, LATER)).contains(new OrderPaymentPending(orderId, retry.value()));
        assertThat(pending.statusReason()).isEmpty();
        assertThat(pending.markPaid(retry, PRICE, LATER)).contains(new OrderPaid(orderId, retry.value()));
        assertThat(pending.paymentCanceled(retry, "CUSTOMER_REQUEST", LATER))
                .contains(new OrderCanceled(orderId, retry.value(), "CUSTOMER_REQUEST"));
        assertThat(pending.statusReason()).contains("CUSTOMER_REQUEST");
    }

    @Test
    void partialRefundsAddUpToARefundedOrderAndARepeatOrAnEarlierTotalChangesNothing() {
        PaymentId payment = newPaymentId();
        Order order = anOrder().in(OrderStatus.PAID, payment).build();
        UUID orderId = order.id().value();

        assertThat(order.refundSucceeded(payment, krw(4_000), PRICE, LATER))
                .containsExactly(new OrderPartiallyRefunded(orderId, payment.value(), 4_000, 15_000, "KRW"));
        assertThat(order.refundSucceeded(payment, krw(4_000), PRICE, LATER.plusSeconds(1))).as("a duplicate").isEmpty();
        assertThat(order.refundSucceeded(payment, krw(9_000), PRICE, LATER))
                .containsExactly(new OrderPartiallyRefunded(orderId, payment.value(), 9_000, 15_000, "KRW"));
        assertThat(order.refundSucceeded(payment, krw(4_000), PRICE, LATER)).as("the first one, again").isEmpty();
        assertThat(order.status()).isEqualTo(OrderStatus.PARTIALLY_REFUNDED);
        assertThat(order.refunded()).contains(krw(9_000));

        assertThat(order.refundSucceeded(payment, PRICE, PRICE, LATER))
                .containsExactly(new OrderRefunded(orderId, payment.value(), 15_000, "KRW"));
        assertThat(order.status()).isEqualTo(OrderStatus.REFUNDED);
        assertThat(order.refunded()).contains(PRICE);
        assertThat(order.statusReason()).isEmpty();
        assertThat(order.paymentCanceled(payment, "REFUNDED", LATER)).as("nothing more to give back").isEmpty();
    }

    @Test
    void aWholeCancelAfterPartialRefundsGivesTheWholePriceBack() {
        PaymentId payment = newPaymentId();
        Order order = anOrder().in(OrderStatus.PARTIALLY_REFUNDED, payment).build();

        assertThat(order.paymentCanceled(payment, "REFUNDED", LATER))
                .containsExactly(new OrderCanceled(order.id().value(), payment.value(), "REFUNDED"));
        assertThat(order.refunded()).contains(PRICE);
        assertThat(order.refundSucceeded(payment, krw(10_000), PRICE, LATER)).as("a refund arriving late").isEmpty();
        assertThat(order.status()).isEqualTo(OrderStatus.CANCELED);
        assertThat(order.refunded()).contains(PRICE);
        assertThat(anOrder().in(OrderStatus.CANCELED, newPaymentId()).build().refunded()).contains(PRICE);
    }

    @Test
    void aRefundSeenBeforeItsApprovalIsAppliedRightAfterTheApprovalAsItsOwnTransition() {
        PaymentId payment = newPaymentId();
        Order order = anOrder().in(OrderStatus.PAYMENT_PENDING, payment).build();
        UUID orderId = order.id().value();

        assertThat(order.refundSucceeded(payment, krw(4_000), PRICE, LATER)).isEmpty();
        assertThat(order.status()).isEqualTo(OrderStatus.PAYMENT_PENDING);

        assertThat(order.markPaid(payment, PRICE, LATER)).containsExactly(new OrderPaid(orderId, payment.value()),
                new OrderPartiallyRefunded(orderId, payment.value(), 4_000, 15_000, "KRW"));
        assertThat(order.status()).isEqualTo(OrderStatus.PARTIALLY_REFUNDED);
        assertThat(order.markPaid(payment, PRICE, LATER)).as("the approval again").isEmpty();

        Order refundedAhead = anOrder().in(OrderStatus.PAYMENT_PENDING, payment).build();
        refundedAhead.refundSucceeded(payment, PRICE, PRICE, LATER);
        assertThat(refundedAhead.markPaid(payment, PRICE, LATER)).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("OrderPaid", "OrderRefunded");
    }

    @Test
    void aRefundKeptForAnAttemptThatThenFailedIsForgottenWithIt() {
        PaymentId payment = newPaymentId();
        Order order = anOrder().in(OrderStatus.PAYMENT_PENDING, payment).build();
        order.refundSucceeded(payment, krw(4_000), PRICE, LATER);

        order.paymentCanceled(payment, "COMPENSATION", LATER);
        assertThat(order.status()).isEqualTo(OrderStatus.FAILED);
        assertThat(order.refunded()).isEmpty();

        PaymentId retry = newPaymentId();
        order.startPayment(retry, LATER);
        assertThat(order.markPaid(retry, PRICE, LATER)).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("OrderPaid");
        assertThat(order.refunded()).isEmpty();
    }

    @Test
    void aRefundOfAnotherAmountOrOfMoreThanThePriceIsRefusedAndChangesNothing() {
        PaymentId payment = newPaymentId();
        Order order = anOrder().in(OrderStatus.PAID, payment).build();

        assertThatThrownBy(() -> order.refundSucceeded(payment, krw(4_000), krw(14_999), LATER))
                .isInstanceOf(PaymentAmountMismatchException.class).hasMessageContaining(order.id().toString());
        assertThatThrownBy(() -> order.refundSucceeded(payment, krw(15_001), PRICE, LATER))
                .isInstanceOf(PaymentAmountMismatchException.class);
        assertThatThrownBy(() -> order.refundSucceeded(payment, new Money(4_000, "USD"), new Money(15_000, "USD"),
                LATER)).isInstanceOf(PaymentAmountMismatchException.class);
        assertThat(order.status()).isEqualTo(OrderStatus.PAID);
        assertThat(order.refunded()).isEmpty();
    }

    private static Money krw(long amount) {
        return new Money(amount, "KRW");
    }

    @Test
    void anApprovalForAnotherAmountIsNotTakenAsPayment() {
        PaymentId payment = newPaymentId();
        Order order = anOrder().in(OrderStatus.PAYMENT_PENDING, payment).build();

        assertThatThrownBy(() -> order.markPaid(payment, new Money(14_999, "KRW"), LATER))
                .isInstanceOf(PaymentAmountMismatchException.class);
        assertThatThrownBy(() -> order.markPaid(payment, new Money(15_000, "USD"), LATER))
                .isInstanceOf(PaymentAmountMismatchException.class);
        assertThat(order.status()).isEqualTo(OrderStatus.PAYMENT_PENDING);
    }

    @Test
    void rejectsOrdersThatCannotExist() {
        assertThatThrownBy(() -> new MemberId(" ")).isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> Order.place(OrderId.newId(), new MemberId("m"), PRICE, " ", T0))
                .isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> Order.place(OrderId.newId(), new MemberId("m"), PRICE, "x".repeat(201), T0))
                .isInstanceOf(InvalidOrderException.class);
    }

    private static List<OrderEvent> apply(Order order, Verb verb, PaymentId payment) {
        switch (verb) {
            case START_PAYMENT:
                return order.startPayment(payment, LATER);
            case MARK_PAID:
                return order.markPaid(payment, PRICE, LATER);
            case MARK_FAILED:
                return order.markFailed(payment, Order.PAYMENT_DECLINED, LATER);
            case PAYMENT_CANCELED:
                return order.paymentCanceled(payment, "CUSTOMER_REQUEST", LATER);
            case PAYMENT_UNKNOWN:
                order.paymentOutcomeUnknown(payment);
                return List.of();
            case REFUND_PART:
                return order.refundSucceeded(payment, PART, PRICE, LATER);
            case REFUND_REST:
                return order.refundSucceeded(payment, PRICE, PRICE, LATER);
            default:
                throw new IllegalArgumentException(verb.name());
        }
    }

    private static void assertUnchanged(Order order, OrderStatus status, Optional<PaymentId> payment, Instant updated) {
        assertThat(order.status()).isEqualTo(status);
        assertThat(order.paymentId()).isEqualTo(payment);
        assertThat(order.updatedAt()).isEqualTo(updated);
    }
}

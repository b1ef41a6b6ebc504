package dev.payments.order.domain;

import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPaymentPending;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Arrays;
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

    enum Verb { START_PAYMENT, MARK_PAID, MARK_FAILED, PAYMENT_CANCELED, PAYMENT_UNKNOWN }

    /** Whether the outcome is for the order's current payment attempt or for some other payment. */
    enum Payment { CURRENT, OTHER }

    /**
     * Every state x every verb x (current payment | another payment). {@code expected}: the new state and the one
     * event written, {@code NO_OP} (state and payment unchanged, no event), or {@code ILLEGAL} (named exception,
     * nothing changed). CREATED has no current payment, so only OTHER applies.
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
    })
    void stateMachine(OrderStatus from, Verb verb, Payment which, String expected, String eventType) {
        PaymentId current = newPaymentId();
        Order order = anOrder().in(from, current).build();
        PaymentId offered = which == Payment.CURRENT ? current : newPaymentId();
        Optional<PaymentId> paymentBefore = order.paymentId();
        Instant updatedBefore = order.updatedAt();

        if ("ILLEGAL".equals(expected)) {
            assertThatThrownBy(() -> apply(order, verb, offered))
                    .isInstanceOf(IllegalOrderTransitionException.class)
                    .hasMessageContaining(order.id().toString());
            assertUnchanged(order, from, paymentBefore, updatedBefore);
        } else if ("NO_OP".equals(expected)) {
            assertThat(apply(order, verb, offered)).isEmpty();
            assertUnchanged(order, from, paymentBefore, updatedBefore);
        } else {
            Optional<OrderEvent> event = apply(order, verb, offered);
            assertThat(order.status()).isEqualTo(OrderStatus.valueOf(expected));
            assertThat(order.paymentId()).contains(offered);
            assertThat(order.updatedAt()).isEqualTo(LATER);
            assertThat(event).get().extracting(e -> e.getClass().getSimpleName()).isEqualTo(eventType);
            assertThat(event.get().orderId()).isEqualTo(order.id().value());
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

    private static Optional<OrderEvent> apply(Order order, Verb verb, PaymentId payment) {
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
                return Optional.empty();
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

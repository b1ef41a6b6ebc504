package dev.payments.contracts;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The logical name of each event on the wire. Never a Java class name: renaming a class must not break consumers. */
public enum EventType {
    ORDER_CREATED("OrderCreated", OrderCreated.class, AggregateType.ORDER),
    ORDER_PAYMENT_PENDING("OrderPaymentPending", OrderPaymentPending.class, AggregateType.ORDER),
    ORDER_PAID("OrderPaid", OrderPaid.class, AggregateType.ORDER),
    ORDER_FAILED("OrderFailed", OrderFailed.class, AggregateType.ORDER),
    ORDER_CANCELED("OrderCanceled", OrderCanceled.class, AggregateType.ORDER),
    ORDER_PARTIALLY_REFUNDED("OrderPartiallyRefunded", OrderPartiallyRefunded.class, AggregateType.ORDER),
    ORDER_REFUNDED("OrderRefunded", OrderRefunded.class, AggregateType.ORDER),
    PAYMENT_REQUESTED("PaymentRequested", PaymentRequested.class, AggregateType.PAYMENT),
    PAYMENT_APPROVED("PaymentApproved", PaymentApproved.class, AggregateType.PAYMENT),
    PAYMENT_DECLINED("PaymentDeclined", PaymentDeclined.class, AggregateType.PAYMENT),
    PAYMENT_FAILED("PaymentFailed", PaymentFailed.class, AggregateType.PAYMENT),
    PAYMENT_UNKNOWN("PaymentUnknown", PaymentUnknown.class, AggregateType.PAYMENT),
    PAYMENT_CANCEL_OWED("PaymentCancelOwed", PaymentCancelOwed.class, AggregateType.PAYMENT),
    PAYMENT_CANCELED("PaymentCanceled", PaymentCanceled.class, AggregateType.PAYMENT),
    REFUND_REQUESTED("RefundRequested", RefundRequested.class, AggregateType.PAYMENT),
    REFUND_SUCCEEDED("RefundSucceeded", RefundSucceeded.class, AggregateType.PAYMENT),
    REFUND_FAILED("RefundFailed", RefundFailed.class, AggregateType.PAYMENT),
    REFUND_UNKNOWN("RefundUnknown", RefundUnknown.class, AggregateType.PAYMENT);

    private static final Map<String, EventType> BY_WIRE_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(EventType::wireName, Function.identity()));
    private static final Map<Class<?>, EventType> BY_CLASS = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(EventType::payloadClass, Function.identity()));

    private final String wireName;
    private final Class<? extends DomainEvent> payloadClass;
    private final AggregateType aggregateType;

    EventType(String wireName, Class<? extends DomainEvent> payloadClass, AggregateType aggregateType) {
        this.wireName = wireName;
        this.payloadClass = payloadClass;
        this.aggregateType = aggregateType;
    }

    public String wireName() {
        return wireName;
    }

    public Class<? extends DomainEvent> payloadClass() {
        return payloadClass;
    }

    public AggregateType aggregateType() {
        return aggregateType;
    }

    public static Optional<EventType> fromWireName(String wireName) {
        return Optional.ofNullable(BY_WIRE_NAME.get(wireName));
    }

    public static EventType of(DomainEvent event) {
        EventType type = BY_CLASS.get(event.getClass());
        if (type == null) {
            throw new IllegalArgumentException("No wire name registered for " + event.getClass());
        }
        return type;
    }
}

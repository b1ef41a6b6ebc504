package dev.payments.drills.baseline;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.util.UUID;

/** The order's and payment's rows; each method its own transaction, or part of the caller's if it has one. */
@Service
public class PaymentRecorder {

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final ApplicationEventPublisher events;

    public PaymentRecorder(OrderRepository orders, PaymentRepository payments, ApplicationEventPublisher events) {
        this.orders = orders;
        this.payments = payments;
        this.events = events;
    }

    @Transactional
    public void markPending(String orderId) {
        order(orderId).setStatus("PAYMENT_PENDING");
    }

    /** The PG approved: the payment, the order PAID, and the event the notifications hang on. */
    @Transactional
    public String complete(String orderId, String paymentKey, long amount) {
        OrderEntity order = order(orderId);
        PaymentEntity payment = payments.save(new PaymentEntity(UUID.randomUUID().toString(), orderId, paymentKey,
                amount, "APPROVED"));
        order.setStatus("PAID");
        order.setPaymentId(payment.getId());
        events.publishEvent(new PaymentCompleted(orderId));
        return payment.getId();
    }

    @Transactional
    public void markFailed(String orderId) {
        order(orderId).setStatus("FAILED");
    }

    private OrderEntity order(String orderId) {
        return orders.findById(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
    }
}

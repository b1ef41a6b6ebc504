package dev.payments.drills.baseline;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * 000's culprit: "payment complete" and "receipt" saved right after the payment's commit, in a new transaction. The
 * payment's connection is released only after the after-commit callbacks have run, so each request asks for a
 * second connection while it still holds its first; ten of them at once on a pool of ten wait for each other until
 * the pool's timeout.
 */
@Component
public class NotificationListener {

    private final NotificationRepository notifications;

    public NotificationListener(NotificationRepository notifications) {
        this.notifications = notifications;
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public void on(PaymentCompleted event) {
        notifications.save(new NotificationEntity(event.orderId(), "PAYMENT_COMPLETED"));
        notifications.save(new NotificationEntity(event.orderId(), "RECEIPT"));
    }
}

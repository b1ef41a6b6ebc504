package dev.payments.notification.application;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.Money;
import dev.payments.contracts.PaymentEvent;
import dev.payments.notification.domain.MemberId;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.NotificationId;
import dev.payments.notification.domain.NotificationKind;
import dev.payments.notification.domain.NotificationPolicy;
import dev.payments.notification.domain.OrderId;
import dev.payments.notification.domain.PaymentId;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Stores the notifications a payment event earns, PENDING, in the inbox's transaction. Nothing is sent here: delivery
 * runs later on its own thread, so the consumer of payment events never waits on an SMS gateway (seed 000).
 */
public class RecordPaymentNotifications {

    private final Notifications notifications;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public RecordPaymentNotifications(Notifications notifications, TransactionTemplate transaction, Clock clock) {
        this.notifications = notifications;
        this.transaction = transaction;
        this.clock = clock;
    }

    /**
     * @param eventId the envelope's event id, part of each notification's identity
     * @return the notifications stored now (none for a duplicate or an event that earns none)
     */
    public List<Notification> record(UUID eventId, DomainEvent event) {
        if (!(event instanceof PaymentEvent payment)) {
            throw new IllegalArgumentException("Not a payment event: " + event.getClass().getSimpleName());
        }
        Instant now = clock.instant();
        // Joins the inbox's transaction when the listener calls it (the usual case).
        return transaction.execute(status -> {
            List<Notification> stored = new ArrayList<>();
            for (NotificationKind kind : NotificationPolicy.kindsFor(payment)) {
                Notification notification = Notification.pending(NotificationId.newId(), eventId, kind,
                        new OrderId(payment.orderId()), new PaymentId(payment.paymentId()),
                        new MemberId(payment.memberId()), new Money(payment.amount(), payment.currency()), now);
                if (notifications.insertIfAbsent(notification)) {
                    stored.add(notification);
                }
            }
            return stored;
        });
    }
}

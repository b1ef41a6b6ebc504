package dev.payments.notification.application;

import dev.payments.notification.domain.MemberId;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.OrderId;
import dev.payments.notification.domain.PaymentId;

import java.util.List;
import java.util.Optional;

/** The notifications of one order, oldest first, with their delivery status: a member's own, or all for an operator. */
public class ListNotifications {

    private final Notifications notifications;

    public ListNotifications(Notifications notifications) {
        this.notifications = notifications;
    }

    /** Another member's order lists nothing, exactly like an order without notifications: its id reveals nothing. */
    public List<Notification> forOrder(OrderId orderId, MemberId member) {
        return notifications.findByOrder(orderId).stream().filter(n -> n.memberId().equals(member)).toList();
    }

    /**
     * What the customer of an order was sent (an operator answering "was I told?"), whoever the member; narrowed to one
     * payment when given, since an order may be paid again after a failed payment.
     */
    public List<Notification> forOperator(OrderId orderId, Optional<PaymentId> payment) {
        return notifications.findByOrder(orderId).stream()
                .filter(n -> payment.map(n.paymentId()::equals).orElse(true)).toList();
    }
}

package dev.payments.notification.application;

import dev.payments.notification.domain.MemberId;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.OrderId;

import java.util.List;

/** A member's notifications of one order, oldest first, with their delivery status. */
public class ListNotifications {

    private final Notifications notifications;

    public ListNotifications(Notifications notifications) {
        this.notifications = notifications;
    }

    /** Another member's order lists nothing, exactly like an order without notifications: its id reveals nothing. */
    public List<Notification> forOrder(OrderId orderId, MemberId member) {
        return notifications.findByOrder(orderId).stream().filter(n -> n.memberId().equals(member)).toList();
    }
}

package dev.payments.notification.application;

import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.OrderId;

import java.util.List;

/** The notifications of one order, oldest first, with their delivery status. */
public class ListNotifications {

    private final Notifications notifications;

    public ListNotifications(Notifications notifications) {
        this.notifications = notifications;
    }

    public List<Notification> forOrder(OrderId orderId) {
        return notifications.findByOrder(orderId);
    }
}

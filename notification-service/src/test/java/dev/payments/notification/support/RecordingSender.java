package dev.payments.notification.support;

import dev.payments.notification.application.NotificationSender;
import dev.payments.notification.domain.Notification;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/** A channel that records what it delivered and cannot reach {@link #UNREACHABLE_MEMBER}. */
public class RecordingSender implements NotificationSender {

    public static final String UNREACHABLE_MEMBER = "member-unreachable";

    private final List<Notification> delivered = new CopyOnWriteArrayList<>();

    @Override
    public DeliveryResult send(Notification notification) {
        if (UNREACHABLE_MEMBER.equals(notification.memberId().value())) {
            throw new IllegalStateException("SMS gateway: number of " + UNREACHABLE_MEMBER + " unreachable");
        }
        delivered.add(notification);
        return new Delivered();
    }

    public long deliveredFor(UUID orderId) {
        return delivered.stream().filter(n -> n.orderId().value().equals(orderId)).count();
    }
}

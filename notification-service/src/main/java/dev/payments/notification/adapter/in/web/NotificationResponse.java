package dev.payments.notification.adapter.in.web;

import dev.payments.notification.domain.Notification;

import java.time.Instant;
import java.util.UUID;

/** A notification as clients and operators see it; {@code sentAt} is null until delivered. */
record NotificationResponse(UUID notificationId, UUID orderId, UUID paymentId, String memberId, String kind,
                            String status, long amount, String currency, int attempts, Instant createdAt,
                            Instant sentAt) {

    static NotificationResponse of(Notification n) {
        return new NotificationResponse(n.id().value(), n.orderId().value(), n.paymentId().value(),
                n.memberId().value(), n.kind().name(), n.status().name(), n.money().amount(), n.money().currency(),
                n.attempts(), n.createdAt(), n.sentAt().orElse(null));
    }
}

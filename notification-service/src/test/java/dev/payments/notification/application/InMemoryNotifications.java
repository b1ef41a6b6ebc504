package dev.payments.notification.application;

import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.OrderId;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The repository's contract in memory, unique on (event, kind) and (payment, kind) like the table. */
class InMemoryNotifications implements Notifications {

    final List<Notification> rows = new ArrayList<>();
    /** The size of each {@link #updateAll} call, in order: one per transaction the use case wrote. */
    final List<Integer> recorded = new ArrayList<>();

    @Override
    public boolean insertIfAbsent(Notification n) {
        boolean duplicate = rows.stream().anyMatch(r -> r.kind() == n.kind()
                && (r.eventId().equals(n.eventId()) || r.paymentId().equals(n.paymentId())));
        if (duplicate) {
            return false;
        }
        rows.add(n);
        return true;
    }

    @Override
    public List<Notification> claimDue(Instant now, Duration lease, int limit) {
        return rows.stream()
                .filter(n -> n.nextAttemptAt().map(at -> !at.isAfter(now)).orElse(false))
                .sorted(Comparator.comparing(n -> n.nextAttemptAt().orElseThrow()))
                .limit(limit)
                .toList();
    }

    @Override
    public void updateAll(List<Notification> notifications) {
        recorded.add(notifications.size());
    }

    @Override
    public List<Notification> findByOrder(OrderId orderId) {
        return rows.stream().filter(n -> n.orderId().equals(orderId)).toList();
    }
}

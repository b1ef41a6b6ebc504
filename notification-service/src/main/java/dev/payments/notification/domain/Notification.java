package dev.payments.notification.domain;

import dev.payments.contracts.Money;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.notification.domain.NotificationStatus.FAILED;
import static dev.payments.notification.domain.NotificationStatus.PENDING;
import static dev.payments.notification.domain.NotificationStatus.SENT;

/**
 * One message to a customer about one payment event. Stored PENDING when the event is consumed; delivered later on
 * other threads, so a delivery problem never touches the consumer of the payment event. Delivery is at least once: a
 * worker that dies between sending and recording the result lets the claim lapse, and the message is sent again.
 */
public final class Notification {

    private final NotificationId id;
    private final UUID eventId;
    private final NotificationKind kind;
    private final OrderId orderId;
    private final PaymentId paymentId;
    private final MemberId memberId;
    private final Money money;
    private final Instant createdAt;
    private NotificationStatus status;
    private int attempts;
    private String lastError;
    private Instant nextAttemptAt;
    private Instant sentAt;
    private Instant updatedAt;

    private Notification(NotificationId id, UUID eventId, NotificationKind kind, OrderId orderId, PaymentId paymentId,
                         MemberId memberId, Money money, Instant createdAt, NotificationStatus status, int attempts,
                         String lastError, Instant nextAttemptAt, Instant sentAt, Instant updatedAt) {
        this.id = Objects.requireNonNull(id);
        this.eventId = Objects.requireNonNull(eventId);
        this.kind = Objects.requireNonNull(kind);
        this.orderId = Objects.requireNonNull(orderId);
        this.paymentId = Objects.requireNonNull(paymentId);
        this.memberId = Objects.requireNonNull(memberId);
        this.money = Objects.requireNonNull(money);
        this.createdAt = Objects.requireNonNull(createdAt);
        this.status = Objects.requireNonNull(status);
        this.attempts = attempts;
        this.lastError = lastError;
        this.nextAttemptAt = nextAttemptAt;
        this.sentAt = sentAt;
        this.updatedAt = Objects.requireNonNull(updatedAt);
    }

    /** A notification caused by payment event {@code eventId}, due at once. */
    public static Notification pending(NotificationId id, UUID eventId, NotificationKind kind, OrderId orderId,
                                       PaymentId paymentId, MemberId memberId, Money money, Instant now) {
        return new Notification(id, eventId, kind, orderId, paymentId, memberId, money, now, PENDING, 0, null, now,
                null, now);
    }

    /** Rebuilds a stored notification. */
    public static Notification restore(NotificationId id, UUID eventId, NotificationKind kind, OrderId orderId,
                                       PaymentId paymentId, MemberId memberId, Money money, Instant createdAt,
                                       NotificationStatus status, int attempts, String lastError,
                                       Instant nextAttemptAt, Instant sentAt, Instant updatedAt) {
        return new Notification(id, eventId, kind, orderId, paymentId, memberId, money, createdAt, status, attempts,
                lastError, nextAttemptAt, sentAt, updatedAt);
    }

    /** The channel accepted the message. */
    public void markSent(Instant now) {
        requireDeliverable(SENT);
        attempts++;
        status = SENT;
        sentAt = now;
        nextAttemptAt = null;
        updatedAt = now;
    }

    /** The channel refused or did not answer; tried again after a backoff while the policy allows. */
    public void markFailed(String error, RetryPolicy retry, Instant now) {
        requireDeliverable(FAILED);
        attempts++;
        status = FAILED;
        lastError = error;
        Duration backoff = retry.backoffAfter(attempts);
        nextAttemptAt = backoff == null ? null : now.plus(backoff);
        updatedAt = now;
    }

    /** Whether a delivery attempt may still happen: never sent, not given up. */
    public boolean isDeliverable() {
        return status != SENT && nextAttemptAt != null;
    }

    private void requireDeliverable(NotificationStatus target) {
        if (!isDeliverable()) {
            throw new IllegalNotificationTransitionException(id, status, target);
        }
    }

    public NotificationId id() {
        return id;
    }

    /** The payment event that caused this notification. */
    public UUID eventId() {
        return eventId;
    }

    public NotificationKind kind() {
        return kind;
    }

    public OrderId orderId() {
        return orderId;
    }

    public PaymentId paymentId() {
        return paymentId;
    }

    public MemberId memberId() {
        return memberId;
    }

    public Money money() {
        return money;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public NotificationStatus status() {
        return status;
    }

    public int attempts() {
        return attempts;
    }

    public Optional<String> lastError() {
        return Optional.ofNullable(lastError);
    }

    /** When the next delivery attempt is due; empty once sent or given up. */
    public Optional<Instant> nextAttemptAt() {
        return Optional.ofNullable(nextAttemptAt);
    }

    public Optional<Instant> sentAt() {
        return Optional.ofNullable(sentAt);
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}

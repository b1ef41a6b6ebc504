package dev.payments.notification.application;

import dev.payments.notification.domain.Notification;

/** The channel that reaches the customer (SMS, e-mail, push). Called with no transaction and no connection held. */
public interface NotificationSender {

    DeliveryResult send(Notification notification);

    /** What the channel said. */
    sealed interface DeliveryResult permits Delivered, Rejected {
    }

    /** The channel accepted the message. */
    record Delivered() implements DeliveryResult {
    }

    /** The channel refused it or could not be reached; {@code reason} is kept for operators. */
    record Rejected(String reason) implements DeliveryResult {
    }
}

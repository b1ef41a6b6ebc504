package dev.payments.notification.adapter.out.delivery;

import dev.payments.notification.application.NotificationSender;
import dev.payments.notification.domain.Notification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Stands in for the SMS / e-mail gateway until there is one: the message goes to the log and counts as sent. */
@Component
class LoggingNotificationSender implements NotificationSender {

    private static final Logger log = LoggerFactory.getLogger(LoggingNotificationSender.class);

    @Override
    public DeliveryResult send(Notification notification) {
        log.info("To member {}: {} ({})", notification.memberId(), text(notification), notification.id());
        return new Delivered();
    }

    static String text(Notification n) {
        switch (n.kind()) {
            case PAYMENT_COMPLETED:
                return "Your payment of " + n.money() + " for order " + n.orderId() + " is complete.";
            case RECEIPT:
                return "Receipt: order " + n.orderId() + ", payment " + n.paymentId() + ", " + n.money() + ".";
            case PAYMENT_FAILED:
                return "Your payment of " + n.money() + " for order " + n.orderId()
                        + " did not go through. No money was taken; you can try again.";
            case PAYMENT_CANCELED:
                return "Your payment of " + n.money() + " for order " + n.orderId() + " was cancelled and refunded.";
            case PAYMENT_REFUNDED:
                return n.money() + " of your payment for order " + n.orderId() + " was refunded.";
            default:
                throw new IllegalArgumentException("No text for " + n.kind());
        }
    }
}

package dev.payments.notification.domain;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCancelOwed;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;
import dev.payments.contracts.RefundFailed;
import dev.payments.contracts.RefundRequested;
import dev.payments.contracts.RefundSucceeded;
import dev.payments.contracts.RefundUnknown;

import java.util.List;

/** Which notifications a payment event earns the customer. */
public final class NotificationPolicy {

    private NotificationPolicy() {
    }

    /**
     * Whether an event may earn a notification. One that earns none by rule (requested, unknown, cancel owed) is
     * passed over without a transaction; anything else is taken on, and a payment event no rule covers throws here
     * as it would from {@link #kindsFor}, so that it is still dead-lettered.
     */
    public static boolean concerns(DomainEvent event) {
        return !(event instanceof PaymentEvent payment) || !kindsFor(payment).isEmpty();
    }

    public static List<NotificationKind> kindsFor(PaymentEvent event) {
        if (event instanceof PaymentApproved) {
            return List.of(NotificationKind.PAYMENT_COMPLETED, NotificationKind.RECEIPT);
        }
        if (event instanceof PaymentDeclined || event instanceof PaymentFailed) {
            return List.of(NotificationKind.PAYMENT_FAILED);
        }
        if (event instanceof PaymentCanceled) {
            return List.of(NotificationKind.PAYMENT_CANCELED);
        }
        if (event instanceof PaymentCancelOwed) {
            // The charge is still on the card until the PG confirms the cancel; PaymentCanceled tells the customer.
            return List.of();
        }
        if (event instanceof RefundSucceeded) {
            // One per refund: each is its own event, and the notification is keyed by it (docs/refunds.md).
            return List.of(NotificationKind.PAYMENT_REFUNDED);
        }
        if (event instanceof RefundRequested || event instanceof RefundUnknown || event instanceof RefundFailed) {
            // The API answered the refund's requester; only money actually given back is worth a message.
            return List.of();
        }
        if (event instanceof PaymentRequested || event instanceof PaymentUnknown) {
            // The API already said "pending". Never say "failed" while money may have moved (field report 002,
            // docs/field-reports.md):
            // reconciliation's final event will tell.
            return List.of();
        }
        throw new IllegalArgumentException("No notification rule for " + event.getClass().getSimpleName());
    }
}

package dev.payments.notification.config;

import dev.payments.outbox.inbox.InboxRetention;
import dev.payments.support.retention.RetentionRulesCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** notification-service's retention rules and the inbox's, with their shipped defaults, on its own migrated schema. */
class RetentionRulesIntegrationTest {

    @Test
    void aDeliveredNotificationGoesAfter180DaysAPendingOneNeverAndTheInboxAfter30Days() {
        RetentionRules rules = new RetentionRules();
        RetentionRulesCheck check = RetentionRulesCheck.on("notification_retention_it",
                List.of(InboxRetention.rule(), rules.notificationRetention()),
                "classpath:db/migration", "classpath:db/inbox");
        notification(check, "SENT", "181 days");
        notification(check, "FAILED", "181 days");
        notification(check, "PENDING", "400 days");
        notification(check, "SENT", "179 days");
        inbox(check, "31 days");
        inbox(check, "29 days");

        assertThat(check.runCycle()).containsEntry("notifications", 2).containsEntry("inbox", 1);

        assertThat(check.count("notifications", "status = 'PENDING'")).as("still to be sent").isEqualTo(1);
        assertThat(check.count("notifications", "status = 'SENT'")).as("younger than 180 days").isEqualTo(1);
        assertThat(check.count("inbox", "TRUE")).as("younger than 30 days").isEqualTo(1);
    }

    private static void notification(RetentionRulesCheck check, String status, String age) {
        check.jdbc().update("INSERT INTO notifications (id, event_id, kind, order_id, payment_id, member_id, amount, "
                + "currency, status, created_at, updated_at) VALUES (gen_random_uuid(), gen_random_uuid(), "
                + "'PAYMENT_COMPLETED', gen_random_uuid(), gen_random_uuid(), 'member-1', 15000, 'KRW', ?, "
                + "now() - ?::interval, now())", status, age);
    }

    private static void inbox(RetentionRulesCheck check, String age) {
        check.jdbc().update("INSERT INTO inbox (consumer, event_id, event_type, received_at) "
                + "VALUES ('notification-service', gen_random_uuid(), 'PaymentApproved', now() - ?::interval)", age);
    }
}

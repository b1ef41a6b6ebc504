package dev.payments.order.config;

import dev.payments.outbox.OutboxRetention;
import dev.payments.outbox.inbox.InboxRetention;
import dev.payments.support.retention.RetentionRulesCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox library's retention rules as order-service gets them, on its own migrated schema: an outbox row goes after
 * 72 hours only if the relay's watermark covers it; an unpublished one stays however old.
 */
class RetentionRulesIntegrationTest {

    @Test
    void aPublishedOutboxRowGoesAfter72HoursAnUnpublishedOneNever() {
        RetentionRulesCheck check = RetentionRulesCheck.on("order_retention_it",
                List.of(InboxRetention.rule(), OutboxRetention.rule()),
                "classpath:db/migration", "classpath:db/outbox", "classpath:db/inbox");
        var jdbc = check.jdbc();
        outbox(check, "73 hours");
        outbox(check, "71 hours");
        // The relay's watermark: every transaction committed so far is in Kafka.
        jdbc.update("INSERT INTO outbox_relay (slot_name, published_through) VALUES ('outbox_order_service', "
                + "pg_current_snapshot())");
        outbox(check, "30 days");   // written after the watermark: not published yet

        assertThat(check.runCycle()).containsEntry("outbox", 1);

        assertThat(check.count("outbox", "created_at < now() - interval '72 hours'"))
                .as("the unpublished row, however old").isEqualTo(1);
        assertThat(check.count("outbox", "TRUE")).isEqualTo(2);
    }

    private static void outbox(RetentionRulesCheck check, String age) {
        check.jdbc().update("INSERT INTO outbox (id, aggregatetype, aggregateid, kafka_key, type, payload, created_at) "
                + "VALUES (gen_random_uuid(), 'order', 'o-1', 'o-1', 'OrderCreated', '{}', now() - ?::interval)", age);
    }
}

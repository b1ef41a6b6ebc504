package dev.payments.outbox.relay;

import dev.payments.outbox.config.OutboxProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class DebeziumSettingsTest {

    private static final PostgresTarget TARGET =
            PostgresTarget.parse("jdbc:postgresql://db.internal:6543/payments", "payment", "secret");

    @Test
    void streamsTheServicesSlotAndPublicationFromNowOn() {
        Properties p = settings(Map.of());

        assertThat(p).containsEntry("connector.class", "io.debezium.connector.postgresql.PostgresConnector")
                .containsEntry("plugin.name", "pgoutput")
                .containsEntry("slot.name", "outbox_payment_service")
                .containsEntry("publication.name", "outbox_publication")
                .containsEntry("publication.autocreate.mode", "disabled")
                .containsEntry("table.include.list", "public.outbox,public.outbox_heartbeat")
                .containsEntry("snapshot.mode", "no_data")
                .containsEntry("database.hostname", "db.internal")
                .containsEntry("database.port", "6543")
                .containsEntry("database.dbname", "payments")
                .containsEntry("database.user", "payment")
                .containsEntry("database.password", "secret");
    }

    @Test
    void theEngineNameKeysTheOffsetsSoANewNameStartsWithoutThem() {
        assertThat(settings(Map.of())).containsEntry("name", "outbox_payment_service-2x")
                .containsEntry("topic.prefix", "outbox_payment_service");
    }

    @Test
    void aSlotAheadOfTheOffsetsFailsTheEngineAndNoFailureIsRetriedInside() {
        assertThat(settings(Map.of())).containsEntry("offset.mismatch.strategy", "trust_offset")
                .containsEntry("errors.max.retries", "0");
    }

    @Test
    void aSlotStillHeldByTheEnginesOwnFirstReadIsAskedForAgainWithinASecondNotAfterTen() {
        assertThat(settings(Map.of())).containsEntry("slot.retry.delay.ms", "500")
                .containsEntry("slot.max.retries", "120");
    }

    @Test
    void eventsCarryNoDebeziumHeadersOrBookkeepingColumnsSoThePollingRelaysLookTheSame() {
        assertThat(settings(Map.of())).containsEntry("extended.headers.enabled", "false")
                .containsEntry("column.exclude.list", "public.outbox.tx_id,public.outbox.seq");
    }

    @Test
    void keepsOffsetsInACompactedKafkaTopicFlushedAtTheConfiguredInterval() {
        Properties p = settings(Map.of());

        assertThat(p).containsEntry("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore")
                .containsEntry("offset.storage.topic", "_outbox-offsets.payment-service")
                .containsEntry("offset.storage.partitions", "1")
                .containsEntry("offset.storage.replication.factor", "3")
                .containsEntry("offset.flush.interval.ms", "1000")
                .containsEntry("bootstrap.servers", "kafka-0:9092,kafka-1:9092");
    }

    @Test
    void theOffsetStoreGivesUpARequestToAnUnreachableBrokerAsSoonAsTheRelaysProducerDoes() {
        assertThat(settings(Map.of())).containsEntry("request.timeout.ms", "10000")
                .containsEntry("default.api.timeout.ms", "15000");
    }

    @Test
    void theOffsetStoreLogsInAsTheService() {
        // Kafka Connect builds the offset store's producer, consumer and admin from the worker's top-level settings.
        assertThat(settings(Map.of())).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", JAAS)
                .as("a consumer setting of the service is no business of the offset store").doesNotContainKey("max.poll.records");
    }

    @Test
    void routesOutboxRowsByAggregateTypeWithTheOrderIdAsKeyAndTheEventHeaders() {
        Properties p = settings(Map.of());

        assertThat(p).containsEntry("transforms", "outbox")
                .containsEntry("transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter")
                .containsEntry("transforms.outbox.route.by.field", "aggregatetype")
                .containsEntry("transforms.outbox.route.topic.replacement", "${routedByValue}.events")
                .containsEntry("transforms.outbox.table.field.event.key", "kafka_key")
                .containsEntry("transforms.outbox.table.fields.additional.placement",
                        "type:header:eventType,traceparent:header:traceparent,created_at:header:createdAt")
                .containsEntry("transforms.outbox.predicate", "outboxTable")
                .containsEntry("predicates.outboxTable.type",
                        "org.apache.kafka.connect.transforms.predicates.TopicNameMatches");
    }

    @Test
    void theRouterPredicateMatchesTheOutboxTopicOnlyNotTheHeartbeats() {
        String pattern = settings(Map.of()).getProperty("predicates.outboxTable.pattern");

        assertThat("outbox_payment_service.public.outbox").matches(pattern);
        assertThat("outbox_payment_service.public.outbox_heartbeat").doesNotMatch(pattern);
        // The slot name is quoted: its underscores and dots are not pattern syntax.
        assertThat("outbox_payment_serviceXpublicXoutbox").doesNotMatch(pattern);
    }

    @Test
    void heartbeatsWriteTheHeartbeatTableAtTheConfiguredInterval() {
        Properties p = settings(Map.of());

        assertThat(p).containsEntry("heartbeat.interval.ms", "10000")
                .containsEntry("heartbeat.action.query", "UPDATE public.outbox_heartbeat SET beat_at = now() WHERE id = 1")
                .containsEntry("poll.interval.ms", "100");
    }

    @Test
    void extraDebeziumPropertiesAreAppliedLastAndWin() {
        Properties p = settings(Map.of("poll.interval.ms", "20", "max.batch.size", "512"));

        assertThat(p).containsEntry("poll.interval.ms", "20").containsEntry("max.batch.size", "512");
    }

    @Test
    void aDatabaseWithoutPasswordGetsAnEmptyOne() {
        PostgresTarget noPassword = PostgresTarget.parse("jdbc:postgresql://localhost/orders", "order", null);

        Properties p = new DebeziumSettings(noPassword, "outbox_order_service", "outbox_order_service",
                "_outbox-offsets.order-service",
                new KafkaConnection(Map.of("bootstrap.servers", "localhost:9092")), relay(Map.of())).toProperties();

        assertThat(p).containsEntry("database.password", "").containsEntry("database.port", "5432");
    }

    private static final String JAAS =
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"payment-service\" password=\"p\";";
    private static final KafkaConnection KAFKA = KafkaConnection.of(Map.of("bootstrap.servers", "kafka-0:9092,kafka-1:9092",
            "security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", JAAS,
            "max.poll.records", "10"));

    private static Properties settings(Map<String, String> extra) {
        return new DebeziumSettings(TARGET, "outbox_payment_service-2x", "outbox_payment_service",
                "_outbox-offsets.payment-service",
                KAFKA, relay(extra)).toProperties();
    }

    private static OutboxProperties.Relay relay(Map<String, String> extra) {
        Map<String, String> values = new HashMap<>(Map.of("outbox.relay.offset-topic-replication-factor", "3"));
        extra.forEach((key, value) -> values.put("outbox.relay.debezium." + key, value));
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("outbox", OutboxProperties.class).relay();
    }
}

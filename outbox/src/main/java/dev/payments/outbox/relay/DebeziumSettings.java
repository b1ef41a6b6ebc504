package dev.payments.outbox.relay;

import dev.payments.outbox.config.OutboxProperties;

import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The Debezium embedded engine's configuration for one service's outbox: a pure function of where the database and
 * Kafka are and of the relay properties, so every setting the relay's guarantees rest on is checked by a unit test
 * instead of by starting an engine.
 *
 * @param target           the service's database
 * @param engineName       the engine's name, under which its offsets are stored: a new name starts without offsets
 * @param slotName         the logical replication slot (also the topic prefix Debezium routes by)
 * @param offsetTopic      compacted Kafka topic holding the engine's offsets
 * @param kafka            Kafka and its login, for the offset store (Connect hands the worker's settings to its clients)
 * @param relay            the relay properties; {@code relay.debezium()} is applied last and wins
 */
record DebeziumSettings(PostgresTarget target, String engineName, String slotName, String offsetTopic, KafkaConnection kafka,
                        OutboxProperties.Relay relay) {

    static final String PUBLICATION = "outbox_publication";
    static final String OUTBOX_TABLE = "public.outbox";
    static final String HEARTBEAT_TABLE = "public.outbox_heartbeat";

    Properties toProperties() {
        Properties p = new Properties();
        p.setProperty("name", engineName);
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        // Offsets in Kafka survive a replaced pod; a file store is lost with the pod's disk.
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.KafkaOffsetBackingStore");
        p.setProperty("offset.storage.topic", offsetTopic);
        p.setProperty("offset.storage.partitions", "1");
        p.setProperty("offset.storage.replication.factor", String.valueOf(relay.offsetTopicReplicationFactor()));
        p.setProperty("offset.flush.interval.ms", String.valueOf(relay.offsetFlushInterval().toMillis()));
        // Top level: Kafka Connect's offset store builds its producer, consumer and admin from the worker's originals.
        kafka.properties().forEach((name, value) -> p.setProperty(name, String.valueOf(value)));
        // The engine waits on those clients, and with Kafka's default timeouts a request in flight when the brokers
        // became reachable again is given up only after request.timeout.ms (30 s), a read of the offset topic after
        // default.api.timeout.ms (60 s): the relay stood still that long after a network cut had healed
        // (docs/results.md, network fault 2). The relay's own producer waits 10 s (OutboxRelay): the same bound here.
        p.setProperty("request.timeout.ms", "10000");
        p.setProperty("default.api.timeout.ms", "15000");
        p.setProperty("database.hostname", target.host());
        p.setProperty("database.port", String.valueOf(target.port()));
        p.setProperty("database.user", target.username());
        p.setProperty("database.password", target.password() == null ? "" : target.password());
        p.setProperty("database.dbname", target.database());
        p.setProperty("topic.prefix", slotName);
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", slotName);
        p.setProperty("publication.name", PUBLICATION);
        // The publication comes from the outbox migration (inserts and updates only, so cleanup is never streamed).
        p.setProperty("publication.autocreate.mode", "disabled");
        p.setProperty("table.include.list", OUTBOX_TABLE + "," + HEARTBEAT_TABLE);
        // The relays' own bookkeeping columns are no part of an event (and Debezium has no converter for xid8).
        p.setProperty("column.exclude.list", OUTBOX_TABLE + ".tx_id," + OUTBOX_TABLE + ".seq");
        p.setProperty("snapshot.mode", "no_data");
        // A slot that moved past the stored offset (re-created, advanced) fails the engine instead of skipping the
        // gap; and no failure is retried inside the engine, so the relay sees it and checks the slot first.
        p.setProperty("offset.mismatch.strategy", "trust_offset");
        p.setProperty("errors.max.retries", "0");
        // On every start Debezium reads the slot once to find where to resume, then opens the stream; the walsender of
        // that first read can still hold the slot for a moment ("replication slot ... is active for PID"), and
        // Debezium's default wait before it tries again is 10 s, which kept publishing stopped for 15 s after
        // PostgreSQL was back (docs/drills.md, db-outage). Ask again every 500 ms, within the same 60 s as 6 x 10 s.
        p.setProperty("slot.retry.delay.ms", "500");
        p.setProperty("slot.max.retries", "120");
        // Debezium's own context headers (engine name, run id) would tell consumers which relay sent an event.
        p.setProperty("extended.headers.enabled", "false");
        p.setProperty("poll.interval.ms", String.valueOf(relay.pollInterval().toMillis()));
        // An idle database must still move its slot, or it retains the WAL every other database writes.
        p.setProperty("heartbeat.interval.ms", String.valueOf(relay.heartbeatInterval().toMillis()));
        p.setProperty("heartbeat.action.query", "UPDATE " + HEARTBEAT_TABLE + " SET beat_at = now() WHERE id = 1");
        p.setProperty("transforms", "outbox");
        p.setProperty("transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter");
        p.setProperty("transforms.outbox.predicate", "outboxTable");
        p.setProperty("transforms.outbox.route.by.field", "aggregatetype");
        p.setProperty("transforms.outbox.route.topic.replacement", "${routedByValue}.events");
        p.setProperty("transforms.outbox.table.field.event.key", "kafka_key");
        p.setProperty("transforms.outbox.table.fields.additional.placement",
                "type:header:eventType,traceparent:header:traceparent,created_at:header:" + KafkaPublisher.HEADER_CREATED_AT);
        // Heartbeat rows are not events: the router applies to the outbox table's topic only.
        p.setProperty("predicates", "outboxTable");
        p.setProperty("predicates.outboxTable.type", "org.apache.kafka.connect.transforms.predicates.TopicNameMatches");
        p.setProperty("predicates.outboxTable.pattern", Pattern.quote(slotName + "." + OUTBOX_TABLE));
        for (Map.Entry<String, String> extra : relay.debezium().entrySet()) {
            p.setProperty(extra.getKey(), extra.getValue());
        }
        return p;
    }
}

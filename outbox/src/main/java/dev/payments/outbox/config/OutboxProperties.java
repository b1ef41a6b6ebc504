package dev.payments.outbox.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;

/**
 * The outbox relay. Published rows are removed by the service's retention job (the library's rule
 * {@link dev.payments.outbox.OutboxRetention#rule()}, {@code retention.keep.outbox}). Slot and offset-topic names default to the application name, so each service (one
 * database each) has its own replication slot, publication and offsets.
 *
 * @param enabled whether this service publishes through the outbox at all
 * @param relay   the relay
 */
@ConfigurationProperties("outbox")
public record OutboxProperties(@DefaultValue("true") boolean enabled,
                               @DefaultValue Relay relay) {

    /** Which relay publishes while the replication slot is healthy. */
    public enum Mode {
        /** The Debezium engine streams the slot; the polling relay takes over only while the slot is lost. */
        DEBEZIUM,
        /** The polling relay always publishes; the slot, if any, is only kept from retaining WAL. */
        POLLING
    }

    /**
     * @param enabled             whether this replica takes part in relay election (a replica that only serves
     *                            requests can opt out)
     * @param mode                which relay publishes while the slot is healthy
     * @param slotName            logical replication slot, also the relay's name; default
     *                            {@code outbox_<application name>}
     * @param offsetTopic         compacted Kafka topic for Debezium's offsets; default
     *                            {@code _outbox-offsets.<application name>}
     * @param offsetTopicReplicationFactor replication factor of that topic (3 in production)
     * @param offsetTopicMinInsyncReplicas {@code min.insync.replicas} of that topic when the relay creates it (2 in
     *                            production: an offset acknowledged by one broker only is not durable)
     * @param offsetFlushInterval how often processed offsets are committed; short, because what was published but
     *                            not committed is sent again after a crash (at-least-once; consumers dedupe)
     * @param pollInterval        Debezium's poll interval: its engine waits this long to fill a batch and its stream
     *                            reader sleeps this long when the slot has nothing, so it is both about what a
     *                            commit waits for its relay and how often an idle relay wakes; the two threads
     *                            cost ~0.75 ms of CPU per wake-up, so at 100 ms the relays are a quarter of an idle
     *                            stack, at 50 ms they were a third (docs/measurements.md, "An idle stack")
     * @param heartbeatInterval   heartbeat that moves the slot on an idle database
     * @param standbyRetry        how often a standby replica tries to take the relay lease
     * @param restartBackoff      pause before restarting after the engine or Kafka failed
     * @param leaseTimeout        how long a holder that stopped renewing keeps the lease: the server ends its
     *                            session after this, the holder itself stops publishing after two thirds of it
     * @param slotCheckInterval   how often the active relay checks its slot (exists, not lost) and the outbox lag
     * @param watermarkInterval   how often the Debezium relay records how far it has published
     * @param slotRecoveryDelay   how long the polling relay publishes after a slot loss before the relay takes a new
     *                            slot into use and hands back to Debezium
     * @param engineFailuresBeforeFallback consecutive engine failures after which the polling relay takes over
     * @param polling             the polling relay
     * @param debezium            extra Debezium properties, applied last
     */
    public record Relay(@DefaultValue("true") boolean enabled,
                        @DefaultValue("debezium") Mode mode,
                        String slotName,
                        String offsetTopic,
                        @DefaultValue("1") short offsetTopicReplicationFactor,
                        @DefaultValue("1") short offsetTopicMinInsyncReplicas,
                        @DefaultValue("1s") Duration offsetFlushInterval,
                        @DefaultValue("100ms") Duration pollInterval,
                        @DefaultValue("10s") Duration heartbeatInterval,
                        @DefaultValue("2s") Duration standbyRetry,
                        @DefaultValue("2s") Duration restartBackoff,
                        @DefaultValue("15s") Duration leaseTimeout,
                        @DefaultValue("5s") Duration slotCheckInterval,
                        @DefaultValue("1s") Duration watermarkInterval,
                        @DefaultValue("60s") Duration slotRecoveryDelay,
                        @DefaultValue("3") int engineFailuresBeforeFallback,
                        @DefaultValue Polling polling,
                        @DefaultValue Map<String, String> debezium) {
    }

    /**
     * @param interval  pause between polls when the last one found nothing to publish
     * @param batchSize rows published per poll
     */
    public record Polling(@DefaultValue("50ms") Duration interval,
                          @DefaultValue("500") int batchSize) {
    }
}

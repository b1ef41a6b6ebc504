package dev.payments.outbox.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;

/**
 * The outbox relay and cleanup. Slot and offset-topic names default to the application name, so each service (one
 * database each) has its own replication slot, publication and offsets.
 *
 * @param enabled whether this service publishes through the outbox at all
 * @param relay   the Debezium relay
 * @param cleanup removal of rows that were published long ago
 */
@ConfigurationProperties("outbox")
public record OutboxProperties(@DefaultValue("true") boolean enabled,
                               @DefaultValue Relay relay,
                               @DefaultValue Cleanup cleanup) {

    /**
     * @param enabled             whether this replica takes part in relay election (a replica that only serves
     *                            requests can opt out)
     * @param slotName            logical replication slot; default {@code outbox_<application name>}
     * @param offsetTopic         compacted Kafka topic for Debezium's offsets; default
     *                            {@code _outbox-offsets.<application name>}
     * @param offsetTopicReplicationFactor replication factor of that topic (3 in production)
     * @param offsetFlushInterval how often processed offsets are committed; short, because what was published but
     *                            not committed is sent again after a crash (at-least-once; consumers dedupe)
     * @param pollInterval        Debezium's poll interval
     * @param heartbeatInterval   heartbeat that moves the slot on an idle database
     * @param standbyRetry        how often a standby replica tries to take the relay lease
     * @param restartBackoff      pause before restarting after the engine or Kafka failed
     * @param debezium            extra Debezium properties, applied last
     */
    public record Relay(@DefaultValue("true") boolean enabled,
                        String slotName,
                        String offsetTopic,
                        @DefaultValue("1") short offsetTopicReplicationFactor,
                        @DefaultValue("1s") Duration offsetFlushInterval,
                        @DefaultValue("10ms") Duration pollInterval,
                        @DefaultValue("10s") Duration heartbeatInterval,
                        @DefaultValue("2s") Duration standbyRetry,
                        @DefaultValue("2s") Duration restartBackoff,
                        @DefaultValue Map<String, String> debezium) {
    }

    /**
     * @param interval  how often the cleanup runs on the active relay
     * @param retention how long published rows are kept for inspection and manual replay
     */
    public record Cleanup(@DefaultValue("1h") Duration interval,
                          @DefaultValue("72h") Duration retention) {
    }
}

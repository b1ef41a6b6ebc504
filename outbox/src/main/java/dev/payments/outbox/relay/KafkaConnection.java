package dev.payments.outbox.relay;

import org.apache.kafka.clients.CommonClientConfigs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where Kafka is and how to log in to it, the one thing every Kafka client of the relay starts from: its producer,
 * the offset topic's admin client and the Debezium engine's offset store (producer, consumer, admin). Taken from the
 * service's {@code spring.kafka.*} settings ({@code OutboxAutoConfiguration}), so the relay authenticates exactly as
 * the service's listeners and templates do.
 *
 * @param properties bootstrap servers, security protocol and the {@code sasl.*} / {@code ssl.*} settings
 */
public record KafkaConnection(Map<String, Object> properties) {

    public KafkaConnection {
        if (properties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new IllegalArgumentException("Kafka client settings without bootstrap.servers");
        }
        properties = Map.copyOf(properties);
    }

    /** The connection and security settings among a client's settings; the rest is each client's own business. */
    public static KafkaConnection of(Map<String, ?> clientProperties) {
        Map<String, Object> kept = new HashMap<>();
        clientProperties.forEach((name, value) -> {
            if (value != null && (name.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                    || name.equals(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG)
                    || name.startsWith("sasl.") || name.startsWith("ssl."))) {
                kept.put(name, value instanceof Iterable<?> list ? String.join(",", toStrings(list)) : value);
            }
        });
        return new KafkaConnection(kept);
    }

    public String bootstrapServers() {
        return String.valueOf(properties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    }

    /** These settings plus a client's own (which may not replace where Kafka is or how to log in). */
    public Map<String, Object> with(Map<String, Object> clientSettings) {
        Map<String, Object> merged = new HashMap<>(clientSettings);
        merged.putAll(properties);
        return merged;
    }

    private static Iterable<String> toStrings(Iterable<?> values) {
        List<String> strings = new ArrayList<>();
        values.forEach(value -> strings.add(String.valueOf(value)));
        return strings;
    }

    /** Never the JAAS line or a key store password in a log line. */
    @Override
    public String toString() {
        Map<String, Object> shown = new TreeMap<>();
        properties.forEach((name, value) -> shown.put(name,
                name.contains("jaas") || name.contains("password") ? "[hidden]" : value));
        return "KafkaConnection" + shown;
    }
}

package dev.payments.localstack.infra;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * A SCRAM-SHA-512 login to the broker's SASL_PLAINTEXT listener, as the settings a Kafka client or a Spring service
 * needs. The local stack's and the tests' passwords are {@code <principal>-local} ({@link #local(String)}): LOCAL ONLY,
 * the same values the services' {@code application-local.yml} hold.
 */
public record KafkaCredentials(String username, String password) {

    public static final String SECURITY_PROTOCOL = "SASL_PLAINTEXT";
    public static final String MECHANISM = "SCRAM-SHA-512";

    public KafkaCredentials {
        if (username.isBlank() || username.contains("\"") || password.contains("\"")) {
            throw new IllegalArgumentException("a Kafka principal and password may not be blank or contain quotes");
        }
    }

    /** The local stack's login of {@code principal}: LOCAL ONLY. */
    public static KafkaCredentials local(String principal) {
        return new KafkaCredentials(principal, principal + "-local");
    }

    /** Bootstrap servers plus this login, for a plain Kafka client (admin, producer, consumer). */
    public Map<String, Object> clientProperties(String bootstrapServers) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SECURITY_PROTOCOL);
        properties.put(SaslConfigs.SASL_MECHANISM, MECHANISM);
        properties.put(SaslConfigs.SASL_JAAS_CONFIG, jaasConfig());
        return properties;
    }

    /** This login as a Spring Boot service's {@code spring.kafka.*} settings (every client of the service uses them). */
    public Map<String, String> springProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.security.protocol", SECURITY_PROTOCOL);
        properties.put("spring.kafka.properties.sasl.mechanism", MECHANISM);
        properties.put("spring.kafka.properties.sasl.jaas.config", jaasConfig());
        return properties;
    }

    public String jaasConfig() {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + username
                + "\" password=\"" + password + "\";";
    }

    @Override
    public String toString() {
        return "KafkaCredentials[" + username + "]";
    }
}

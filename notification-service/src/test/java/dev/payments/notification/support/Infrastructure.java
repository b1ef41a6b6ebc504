package dev.payments.notification.support;

import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import org.springframework.test.context.DynamicPropertyRegistry;

/** The JVM-wide PostgreSQL and Kafka of {@link SharedTestInfrastructure}, with notification-service's own database. */
public final class Infrastructure {

    public static final String DATABASE = "notifications";

    private Infrastructure() {
    }

    public static void register(DynamicPropertyRegistry registry) {
        AuthServer issuer = AuthServer.shared(); // starts while PostgreSQL and Kafka start
        SharedTestInfrastructure.springProperties(DATABASE, KafkaAccess.Service.NOTIFICATION).forEach((name, value) -> registry.add(name, () -> value));
        issuer.springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    public static String bootstrapServers() {
        return SharedTestInfrastructure.kafkaBootstrapServers();
    }
}

package dev.payments.localstack;

import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.KafkaAccess;
import java.util.List;

/**
 * What PostgreSQL and Kafka must hold before the first service connects: each service's database and role, the
 * contracts' topics, each service's Kafka principal and ACLs. Every step is idempotent, so a data directory kept from
 * an earlier run is brought up to date too.
 */
final class StackProvisioning {

    /** The contracts' topics; created up front so that consumers and the outbox relay do not race auto-creation. */
    static final List<String> TOPICS = List.of("order.events", "payment.events");
    static final int TOPIC_PARTITIONS = 4;

    private StackProvisioning() {
    }

    static void provision(EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka, List<ChildProcess> children) {
        children.forEach(child -> child.component().database().ifPresent(postgres::createDatabase));
        TOPICS.forEach(topic -> kafka.createTopic(topic, TOPIC_PARTITIONS));
        // LOCAL ONLY passwords, as in each service's application-local.yml.
        for (KafkaAccess.Service service : KafkaAccess.Service.values()) {
            kafka.grant(service.access());
        }
    }
}

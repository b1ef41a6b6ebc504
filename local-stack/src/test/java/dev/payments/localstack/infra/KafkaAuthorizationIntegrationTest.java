package dev.payments.localstack.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The local stack's principals and ACLs (docs/security.md) on a real broker, as the launcher grants them: each
 * service may write its own event topic only, read only what it consumes, and only with its own group; a wrong
 * password does not get in; a client without SASL does not get in either.
 */
class KafkaAuthorizationIntegrationTest {

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Options.defaults());
        broker.createTopic(KafkaAccess.ORDER_EVENTS, 1);
        broker.createTopic(KafkaAccess.PAYMENT_EVENTS, 1);
        for (KafkaAccess.Service service : KafkaAccess.Service.values()) {
            broker.grant(service.access());
        }
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aServiceWritesItsOwnTopicButNotAnotherServicesTopic() throws Exception {
        KafkaCredentials orders = KafkaAccess.Service.ORDER.access().localCredentials();

        send(orders, KafkaAccess.ORDER_EVENTS);
        assertThat(fetchFromStart(KafkaAccess.Service.PAYMENT.access().localCredentials(), KafkaAccess.ORDER_EVENTS))
                .as("payment-service reads what order-service wrote").isPositive();
        assertThatThrownBy(() -> send(orders, KafkaAccess.PAYMENT_EVENTS))
                .as("order-service forging a payment event").hasRootCauseInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> send(KafkaAccess.Service.NOTIFICATION.access().localCredentials(),
                KafkaAccess.PAYMENT_EVENTS))
                .as("notification-service publishes nothing").hasRootCauseInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aServiceReadsWhatItConsumesWithItsOwnGroupOnly() {
        KafkaCredentials notifications = KafkaAccess.Service.NOTIFICATION.access().localCredentials();

        assertThat(joinAndPoll(notifications, "notification-service", KafkaAccess.PAYMENT_EVENTS))
                .as("its own group on the topic it consumes gets the partition").isNotEmpty();
        assertThatThrownBy(() -> fetchFromStart(notifications, KafkaAccess.ORDER_EVENTS))
                .as("a topic it does not consume").isInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> joinAndPoll(notifications, "order-service", KafkaAccess.PAYMENT_EVENTS))
                .as("another service's group").isInstanceOf(GroupAuthorizationException.class);
    }

    @Test
    void reconciliationMayMoveTheOtherServicesGroupsForReplay() throws Exception {
        KafkaCredentials reconciliation = KafkaAccess.Service.RECONCILIATION.access().localCredentials();
        TopicPartition partition = new TopicPartition(KafkaAccess.PAYMENT_EVENTS, 0);

        try (Admin admin = Admin.create(client(reconciliation))) {
            admin.alterConsumerGroupOffsets("order-service", Map.of(partition, new OffsetAndMetadata(0))).all().get();
        }
        try (Admin admin = Admin.create(client(KafkaAccess.Service.PAYMENT.access().localCredentials()))) {
            assertThatThrownBy(() -> admin.alterConsumerGroupOffsets("order-service",
                    Map.of(partition, new OffsetAndMetadata(0))).all().get())
                    .as("payment-service moving order-service's offsets")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(GroupAuthorizationException.class);
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        KafkaCredentials wrong = new KafkaCredentials("payment-service", "not-the-password");

        assertThatThrownBy(() -> send(wrong, KafkaAccess.PAYMENT_EVENTS))
                .hasRootCauseInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aClientWithoutSaslGetsNothing() {
        Map<String, Object> plaintext = new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000));
        try (Admin admin = Admin.create(plaintext)) {
            assertThatThrownBy(() -> admin.listTopics().names().get())
                    .as("the SASL listener does not speak to a PLAINTEXT client").isInstanceOf(ExecutionException.class);
        }
    }

    private static void send(KafkaCredentials login, String topic) throws Exception {
        Map<String, Object> settings = client(login);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5_000);
        settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "order-1", "{}")).get();
        }
    }

    /** Fetches partition 0 from its start (no group), as a console consumer would; what it read. */
    private static int fetchFromStart(KafkaCredentials login, String topic) {
        Map<String, Object> settings = client(login);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            int read = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
            return read;
        }
    }

    /** Joins {@code group} on {@code topic} as a listener would and returns the partitions it was given. */
    private static Set<TopicPartition> joinAndPoll(KafkaCredentials login, String group, String topic) {
        Map<String, Object> settings = client(login);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200));
            }
            return consumer.assignment();
        }
    }

    private static Map<String, Object> client(KafkaCredentials login) {
        Map<String, Object> settings = new HashMap<>(login.clientProperties(broker.bootstrapServers()));
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        return settings;
    }
}

package dev.payments.localstack.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerIntegrationTest {

    private static final String TOPIC = "payment.events";

    @TempDir
    Path logDirectory;

    @Test
    void deliversRecordsAndKeepsThemAndCommittedOffsetsAcrossRestart() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(
                EmbeddedKafkaBroker.Options.defaults().withLogDirectory(logDirectory))) {
            broker.createTopic(TOPIC, 2);
            broker.createTopic(TOPIC, 2);

            send(broker, "order-1", "PaymentApproved");
            assertThat(consume(broker, "notification-service", 1)).containsExactly("order-1=PaymentApproved");

            int port = broker.port();
            long began = System.nanoTime();
            broker.restart();
            Duration restart = Duration.ofNanos(System.nanoTime() - began);

            assertThat(broker.port()).isEqualTo(port);
            assertThat(restart).as("restart must not wait out the old broker session").isLessThan(Duration.ofSeconds(10));
            send(broker, "order-2", "PaymentDeclined");
            assertThat(consume(broker, "notification-service", 1))
                    .as("the group resumes after its committed offset")
                    .containsExactly("order-2=PaymentDeclined");
            assertThat(consume(broker, "replay-" + UUID.randomUUID(), 2))
                    .as("records written before the restart survived")
                    .containsExactlyInAnyOrder("order-1=PaymentApproved", "order-2=PaymentDeclined");

            broker.stop();
            assertThat(broker.isRunning()).isFalse();
        }
    }

    private static void send(EmbeddedKafkaBroker broker, String key, String value) throws Exception {
        Map<String, Object> settings = new HashMap<>(broker.adminClientProperties());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(settings,
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, key, value)).get();
        }
    }

    private static List<String> consume(EmbeddedKafkaBroker broker, String group, int expected) {
        List<String> received = new ArrayList<>();
        Map<String, Object> settings = new HashMap<>(broker.adminClientProperties());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings,
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (received.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    received.add(record.key() + "=" + record.value());
                }
            }
            consumer.commitSync();
        }
        return received;
    }
}

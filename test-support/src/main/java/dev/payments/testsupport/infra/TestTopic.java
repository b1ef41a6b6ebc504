package dev.payments.testsupport.infra;

import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A plain Kafka client on one topic, as an operator's console consumer or another service would see it. Every
 * module's tests read and write topics through this one class.
 */
public final class TestTopic {

    private static final Map<String, KafkaProducer<String, String>> PRODUCERS = new ConcurrentHashMap<>();

    private final String name;
    private final Supplier<Map<String, Object>> client;

    private TestTopic(String name, Supplier<Map<String, Object>> client) {
        this.name = name;
        this.client = client;
    }

    /** The topic on the shared test broker ({@link SharedTestInfrastructure}), as its super user. */
    public static TestTopic named(String name) {
        return new TestTopic(name, SharedTestInfrastructure::kafkaClientProperties);
    }

    /** The topic on another embedded broker, e.g. a local stack's, as its super user. */
    public static TestTopic named(String name, String bootstrapServers) {
        return new TestTopic(name, () -> EmbeddedKafkaBroker.ADMIN.clientProperties(bootstrapServers));
    }

    /**
     * Sends one record and waits until the broker has it (acks=all).
     *
     * @return where it landed (partition and offset), for tests that commit or replay up to it
     */
    public RecordMetadata send(String key, String value, Map<String, String> headers) {
        ProducerRecord<String, String> record = new ProducerRecord<>(name, key, value);
        headers.forEach((header, text) -> record.headers().add(header, text.getBytes(StandardCharsets.UTF_8)));
        try {
            return producer(client.get()).send(record).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not send to " + name, e.getCause());
        }
    }

    // One producer per broker and test JVM: a producer per record costs a connection and a metadata round trip, which
    // a test publishing a hundred events pays a hundred times.
    private static KafkaProducer<String, String> producer(Map<String, Object> client) {
        return PRODUCERS.computeIfAbsent(String.valueOf(client.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)), servers -> {
            Map<String, Object> settings = new HashMap<>(client);
            settings.put(ProducerConfig.ACKS_CONFIG, "all");
            settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            KafkaProducer<String, String> producer = new KafkaProducer<>(settings, new StringSerializer(),
                    new StringSerializer());
            Runtime.getRuntime().addShutdownHook(new Thread(producer::close, "test-topic-producer-close"));
            return producer;
        });
    }

    /**
     * Reads the topic from the beginning until {@code expected} records match or {@code timeout} passes, and returns
     * every matching record read by then.
     */
    public List<ConsumerRecord<String, String>> read(Predicate<ConsumerRecord<String, String>> filter, int expected,
                                                     Duration timeout) {
        List<ConsumerRecord<String, String>> matching = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            assignFromBeginning(consumer, deadline);
            while (matching.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (filter.test(record)) {
                        matching.add(record);
                    }
                });
            }
        }
        return matching;
    }

    /**
     * Every record matching {@code filter} that is on the topic now. Call it after awaiting a later event of the same
     * key: what was not published by then is not coming.
     */
    public List<ConsumerRecord<String, String>> readAll(Predicate<ConsumerRecord<String, String>> filter) {
        List<ConsumerRecord<String, String>> matching = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = assignFromBeginning(consumer, deadline);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (filter.test(record)) {
                        matching.add(record);
                    }
                });
            }
        }
        return matching;
    }

    private KafkaConsumer<String, String> consumer() {
        Map<String, Object> settings = new HashMap<>(client.get());
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer());
    }

    private List<TopicPartition> assignFromBeginning(KafkaConsumer<String, String> consumer, long deadline) {
        List<TopicPartition> partitions = List.of();
        while (partitions.isEmpty() && System.nanoTime() < deadline) {
            partitions = consumer.partitionsFor(name, Duration.ofSeconds(5)).stream()
                    .map(PartitionInfo::partition).map(p -> new TopicPartition(name, p)).toList();
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    public static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}

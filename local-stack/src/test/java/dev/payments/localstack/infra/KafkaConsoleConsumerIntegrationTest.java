package dev.payments.localstack.infra;

import dev.payments.localstack.RepositoryRoot;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documented way to read a topic of the local stack (docs/operations.md, "Reading topics"), run exactly as a
 * user runs it: {@code local-stack/kafka-console-consumer.sh} against a broker with the stack's SCRAM-SHA-512
 * listener reads what is on payment.events with the admin login it fills in, and a wrong password is refused.
 */
class KafkaConsoleConsumerIntegrationTest {

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Options.defaults());
        broker.createTopic(KafkaAccess.PAYMENT_EVENTS, 1);
        Map<String, Object> producer = new java.util.HashMap<>(EmbeddedKafkaBroker.ADMIN.clientProperties(broker.bootstrapServers()));
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> events = new KafkaProducer<>(producer)) {
            events.send(new ProducerRecord<>(KafkaAccess.PAYMENT_EVENTS, "order-1", "{\"type\":\"PaymentApproved\"}")).get();
            events.send(new ProducerRecord<>(KafkaAccess.PAYMENT_EVENTS, "order-2", "{\"type\":\"PaymentDeclined\"}")).get();
        }
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void theDocumentedCommandReadsPaymentEventsWithTheStacksLogin() throws Exception {
        Run run = consume("--topic", "payment.events", "--from-beginning", "--max-messages", "2",
                "--timeout-ms", "60000", "--property", "print.key=true");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("order-1\t{\"type\":\"PaymentApproved\"}",
                "order-2\t{\"type\":\"PaymentDeclined\"}", "Processed a total of 2 messages");
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        Run run = consume("--password", "not-the-password", "--topic", "payment.events", "--from-beginning",
                "--max-messages", "1", "--timeout-ms", "20000");

        assertThat(run.output()).as("exit code " + run.exitCode()).contains("invalid credentials")
                .doesNotContain("PaymentApproved");
    }

    private record Run(int exitCode, String output) {
    }

    private static Run consume(String... options) throws IOException, InterruptedException {
        Path script = RepositoryRoot.find(Path.of("")).resolve("local-stack/kafka-console-consumer.sh");
        List<String> command = new ArrayList<>(List.of("bash", script.toString(),
                "--bootstrap-server", broker.bootstrapServers()));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the console consumer did not finish within 120 s");
        }
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}

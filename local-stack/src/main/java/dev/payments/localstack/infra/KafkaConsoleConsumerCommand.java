package dev.payments.localstack.infra;

import org.apache.kafka.tools.consumer.ConsoleConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code local-stack/kafka-console-consumer.sh --topic payment.events --from-beginning}: Kafka's own console consumer
 * (kafka-tools, the broker's version) logged in with the stack's SCRAM-SHA-512 credentials, so no one has to write a
 * JAAS line to look at a topic. It exists because the ecosystem's usual tool cannot log in: Debian bookworm's kcat
 * links librdkafka 2.0.2, which before 2.6.1 sent the client nonce twice in its SCRAM client-final message
 * (confluentinc/librdkafka#4895); Kafka 4.x checks the nonce strictly (RFC 5802), so the broker answers "invalid
 * credentials" to any such client, whatever the password. docs/operations.md, "Reading topics".
 */
@Command(name = "kafka-console-consumer", usageHelpWidth = 110,
        description = {
            "Kafka's console consumer with the local stack's login; every other option is kafka-console-consumer's:",
            "  local-stack/kafka-console-consumer.sh --topic payment.events --from-beginning --property print.key=true"
        })
public final class KafkaConsoleConsumerCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9092",
            description = "Default: ${DEFAULT-VALUE}, the local stack's broker.")
    String bootstrapServer;

    @Option(names = "--user", paramLabel = "PRINCIPAL", defaultValue = EmbeddedKafkaBroker.SUPER_USER,
            description = "The SCRAM principal (default: ${DEFAULT-VALUE}); a service's own name reads what it may.")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD",
            description = "Default: the local stack's password of the principal, <principal>-local.")
    String password;

    @Unmatched
    List<String> consumerOptions = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        KafkaCredentials login = password == null ? KafkaCredentials.local(user) : new KafkaCredentials(user, password);
        Path config = loginFile(login);
        try {
            List<String> arguments = new ArrayList<>(List.of("--bootstrap-server", bootstrapServer,
                    "--consumer.config", config.toString()));
            arguments.addAll(consumerOptions);
            ConsoleConsumer.run(new org.apache.kafka.tools.consumer.ConsoleConsumerOptions(
                    arguments.toArray(String[]::new)));
            return 0;
        } finally {
            Files.deleteIfExists(config);
        }
    }

    /** The login as consumer properties, readable by this user only: it holds the password. */
    private static Path loginFile(KafkaCredentials login) {
        try {
            Path file = Files.createTempFile("kafka-login", ".properties",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, "security.protocol=" + KafkaCredentials.SECURITY_PROTOCOL + "\n"
                    + "sasl.mechanism=" + KafkaCredentials.MECHANISM + "\n"
                    + "sasl.jaas.config=" + login.jaasConfig().replace("\\", "\\\\") + "\n", StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

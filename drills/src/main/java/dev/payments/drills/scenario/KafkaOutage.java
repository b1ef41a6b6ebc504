package dev.payments.drills.scenario;

import picocli.CommandLine.Command;

/** The Kafka broker stopped under load; the outboxes must hold every event until it is back. */
@Command(name = "kafka-outage", description = "outage: the Kafka broker stopped for 60 s under load, then back.")
final class KafkaOutage extends StoppedOutage {

    KafkaOutage() {
        super("kafka", 60);
    }
}

package dev.payments.drills.scenario;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Issue 6: the Kafka broker stopped under load; the outboxes must hold every event until it is back. */
@Command(name = "kafka-outage", description = "The Kafka broker stopped for 60 s under load, then back.")
final class KafkaOutage extends Outage {

    @Option(names = "--outage", description = "Seconds the broker stays down.")
    int outageSeconds = 60;

    @Override
    String component() {
        return "kafka";
    }

    @Override
    boolean kill() {
        return false;
    }

    @Override
    int outageSeconds() {
        return outageSeconds;
    }
}

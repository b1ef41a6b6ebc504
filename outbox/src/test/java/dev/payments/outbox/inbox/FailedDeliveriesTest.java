package dev.payments.outbox.inbox;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The first failure a dead letter carries is the record's first failed delivery, not its last. */
class FailedDeliveriesTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final FailedDeliveries deliveries = new FailedDeliveries(
            new ConsumerFailures(new InapplicableEvents(Set.of())), new SimpleMeterRegistry(), clock);
    private final ConsumerRecord<String, String> record = new ConsumerRecord<>("order.events", 2, 41L, "k", "v");

    @Test
    void aRecordRetriedBeforeItIsParkedCarriesItsFirstFailure() {
        Instant first = now.get();
        deliveries.failedDelivery(record, new IllegalStateException("bug"), 1);
        now.set(first.plusSeconds(3));
        deliveries.failedDelivery(record, new IllegalStateException("bug"), 2);

        assertThat(deliveries.firstFailure(record)).isEqualTo(first);

        deliveries.recovered(record, new IllegalStateException("bug"));
        now.set(first.plusSeconds(60));
        assertThat(deliveries.firstFailure(record)).as("forgotten once parked: a later failure is a new one")
                .isEqualTo(first.plusSeconds(60));
    }
}

package dev.payments.outbox.relay;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** Watches the replication slot from the active relay: the WAL it keeps from being recycled. */
final class SlotMonitor {

    private static final Logger log = LoggerFactory.getLogger(SlotMonitor.class);
    private static final Duration INTERVAL = Duration.ofSeconds(15);

    private final String slotName;
    private final Clock clock;
    private final AtomicLong retainedWal = new AtomicLong(-1);
    private Instant nextCheck = Instant.EPOCH;

    SlotMonitor(String slotName, MeterRegistry meters, Clock clock) {
        this.slotName = slotName;
        this.clock = clock;
        Gauge.builder("outbox.slot.retained.wal", retainedWal, value -> value.get() < 0 ? Double.NaN : value.get())
                .description("WAL bytes the replication slot retains (reported by the active relay)")
                .baseUnit("bytes").tag("slot", slotName).register(meters);
    }

    void measureIfDue(RelayLease lease) {
        Instant now = clock.instant();
        if (now.isBefore(nextCheck)) {
            return;
        }
        nextCheck = now.plus(INTERVAL);
        try {
            retainedWal.set(lease.retainedWalBytes(slotName));
        } catch (SQLException e) {
            log.warn("Could not read the retained WAL of slot {}", slotName, e);
        }
    }

    /** A standby does not watch the slot: its gauge reads NaN rather than a stale value. */
    void forget() {
        retainedWal.set(-1);
        nextCheck = Instant.EPOCH;
    }
}

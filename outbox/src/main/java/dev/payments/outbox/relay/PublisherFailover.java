package dev.payments.outbox.relay;

import dev.payments.outbox.config.OutboxProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * What one tenure of the lease publishes with: the Debezium engine while the replication slot is healthy, the
 * {@link PollingRelay} while the slot is missing or lost or the engine keeps failing, and back to Debezium on a new
 * slot without a gap. Both start from the watermark the other recorded ({@link RelayProgress}).
 */
final class PublisherFailover {

    private static final Logger log = LoggerFactory.getLogger(PublisherFailover.class);
    private static final Duration ENGINE_HEALTHY_AFTER = Duration.ofMinutes(1);

    private final String slotName;
    private final String offsetTopic;
    private final OutboxProperties.Relay settings;
    private final KafkaConnection kafka;
    private final RelayMetrics metrics;
    private final ReplicationSlot slot;
    private final PollingRelay polling;
    private final DebeziumRelay debezium;
    private final RelayStop stop;
    private final Clock clock;
    private volatile String degraded;
    private volatile boolean offsetTopicReady;

    PublisherFailover(String slotName, String offsetTopic, OutboxProperties.Relay settings, KafkaConnection kafka,
                      RelayMetrics metrics, PollingRelay polling, DebeziumRelay debezium, RelayStop stop, Clock clock) {
        this.slotName = slotName;
        this.offsetTopic = offsetTopic;
        this.settings = settings;
        this.kafka = kafka;
        this.metrics = metrics;
        this.slot = new ReplicationSlot(slotName);
        this.polling = polling;
        this.debezium = debezium;
        this.stop = stop;
        this.clock = clock;
    }

    /** Why the polling relay stands in for Debezium after a failure, null when it does not. */
    String degraded() {
        return degraded;
    }

    /** A standby speaks for nothing: whoever holds the lease now reports the slot and any fallback. */
    void standingBy() {
        degraded = null;
        metrics.standingBy();
    }

    /** Publishes for as long as this tenure lasts, choosing the relay the slot allows. */
    void publish(RelaySession session) throws Exception {
        int fenced = session.lease().fenceOtherStreams(slotName);
        if (fenced > 0) {
            log.warn("Outbox relay {}: ended {} stream(s) of the slot left by a holder that lost its lease", slotName, fenced);
        }
        int engineFailures = 0;
        while (stop.running() && session.lease().renewIfDue()) {
            if (settings.mode() == OutboxProperties.Mode.POLLING) {
                pollWithoutSlot(session);
                return;
            }
            SlotStatus status = slot.status(session.work());
            metrics.slot(status);
            RelayProgress.State recorded = session.state();
            if (!status.healthy()) {
                if (status.exists() || recorded.slotInUse()) {
                    fallBackAfterSlotLoss(session, status);
                } else {
                    handBackToDebezium(session);
                }
                continue;
            }
            if (recorded.engineName() == null) {
                if (recorded.created()) {
                    // A slot this relay has no record of (created before the relay kept one): its engine's offsets
                    // continue it, so nothing needs to be published twice.
                    session.engineTakesOver(slotName);
                } else {
                    handBackToDebezium(session);
                }
                continue;
            }
            Instant started = clock.instant();
            switch (stream(session, recorded.engineName())) {
                case STOPPED, LEASE_LOST -> {
                    return;
                }
                case SLOT_LOST -> engineFailures = 0;
                case ENGINE_FAILED -> {
                    engineFailures = Duration.between(started, clock.instant()).compareTo(ENGINE_HEALTHY_AFTER) > 0
                            ? 1 : engineFailures + 1;
                    if (engineFailures >= settings.engineFailuresBeforeFallback()) {
                        fallBackAfterEngineFailures(session, engineFailures);
                        engineFailures = 0;
                    } else {
                        stop.await(settings.restartBackoff());
                    }
                }
            }
        }
    }

    private DebeziumRelay.Outcome stream(RelaySession session, String engineName) throws Exception {
        ensureOffsetTopic();
        metrics.publishing(RelayMetrics.Publisher.DEBEZIUM);
        DebeziumWatermark watermark = new DebeziumWatermark(slotName);
        Every watermarkDue = new Every(settings.watermarkInterval(), clock);
        Every slotCheckDue = new Every(settings.slotCheckInterval(), clock);
        return debezium.run(session, engineName, stop::running, () -> {
            if (watermarkDue.now()) {
                watermark.tick(session);
            }
            if (slotCheckDue.now()) {
                SlotStatus status = slot.status(session.work());
                metrics.slot(status);
                measureBacklog(session);
                if (!status.healthy()) {
                    return DebeziumRelay.Outcome.SLOT_LOST;
                }
                if (status.condition() == SlotStatus.Condition.AT_RISK) {
                    log.warn("Outbox relay {}: slot {} retains {} bytes of WAL and is about to be invalidated",
                            slotName, slotName, status.retainedWalBytes());
                }
            }
            return null;
        });
    }

    /**
     * The slot is gone or invalidated while the relay depended on it. Never re-created on the spot to stream "from
     * now": the events committed since the published watermark are only in the outbox table, so the polling relay
     * publishes them (and everything after) until a new slot is taken into use.
     */
    private void fallBackAfterSlotLoss(RelaySession session, SlotStatus status) throws Exception {
        RelayMetrics.Backlog backlog = measureBacklog(session);
        log.error("Outbox relay {}: replication slot {} is {} (wal_status {}) with {} outbox rows not known to be "
                        + "published (oldest {} s); the polling relay publishes them from the outbox table, and a new slot "
                        + "is taken into use in {}. Runbook: docs/runbooks/relay-stuck-or-slot-lost.md",
                slotName, slotName, status.condition(), status.walStatus(), backlog.rows(),
                backlog.oldestAgeSeconds(), settings.slotRecoveryDelay());
        metrics.slotLost();
        metrics.fellBack("slot_lost");
        degraded = "slot " + status.condition().name().toLowerCase() + " since " + clock.instant();
        session.pollingTakesOver();
        if (!poll(session, settings.slotRecoveryDelay())) {
            return;
        }
        if (slot.status(session.work()).exists()) {
            slot.drop(session.work());
        }
        session.slotInUse(false);
    }

    private void fallBackAfterEngineFailures(RelaySession session, int failures) throws Exception {
        log.error("Outbox relay {}: the Debezium engine failed {} times in a row; the polling relay publishes until "
                + "the engine is tried again in {}", slotName, failures, settings.slotRecoveryDelay());
        metrics.fellBack("engine_failing");
        degraded = "engine failing since " + clock.instant();
        session.pollingTakesOver();
        poll(session, settings.slotRecoveryDelay());
    }

    /**
     * Debezium takes over from the polling relay without a gap: the slot (created, or advanced to now) streams every
     * transaction that commits after this point; the polling relay publishes everything up to a snapshot taken after
     * it, so a transaction in between is sent by both and deduplicated by the consumers.
     */
    private void handBackToDebezium(RelaySession session) throws Exception {
        Connection work = session.work();
        session.pollingTakesOver();
        if (!slot.status(work).exists()) {
            slot.create(work);
            session.slotInUse(true);
        } else {
            slot.advanceToNow(work);
        }
        String through = PollingRelay.snapshotNow(work);
        metrics.publishing(RelayMetrics.Publisher.POLLING);
        int drained = polling.publishThrough(session, through, true);
        String engineName = slotName + "-" + Long.toString(clock.millis(), 36);
        session.engineTakesOver(engineName);
        log.info("Outbox relay {}: Debezium engine {} takes over after the polling relay published {} rows up to {}",
                slotName, engineName, drained, through);
        degraded = null;
    }

    /** Polling by configuration: a slot nobody streams would only retain WAL, so there is none. */
    private void pollWithoutSlot(RelaySession session) throws Exception {
        session.pollingTakesOver();
        if (slot.status(session.work()).exists()) {
            slot.drop(session.work());
        }
        session.slotInUse(false);
        metrics.slot(null);
        poll(session, null);
    }

    /** Publishes with the polling relay for {@code duration} (null: for the whole tenure); false if the tenure ended. */
    private boolean poll(RelaySession session, Duration duration) throws Exception {
        metrics.publishing(RelayMetrics.Publisher.POLLING);
        Instant until = duration == null ? null : clock.instant().plus(duration);
        Every backlogDue = new Every(settings.slotCheckInterval(), clock);
        while (stop.running() && session.lease().renewIfDue()) {
            if (until != null && !clock.instant().isBefore(until)) {
                return true;
            }
            int published = polling.publishThrough(session, PollingRelay.snapshotNow(session.work()), false);
            if (backlogDue.now()) {
                measureBacklog(session);
                if (settings.mode() == OutboxProperties.Mode.DEBEZIUM) {
                    metrics.slot(slot.status(session.work()));
                }
            }
            if (published == 0) {
                stop.await(polling.interval());
            }
        }
        return false;
    }

    private RelayMetrics.Backlog measureBacklog(RelaySession session) throws SQLException {
        RelayMetrics.Backlog backlog = UnpublishedRows.measure(session.work(), session.publishedThrough(), clock.instant());
        metrics.backlog(backlog);
        return backlog;
    }

    private void ensureOffsetTopic() {
        if (!offsetTopicReady) {
            OffsetTopic.ensureExists(kafka, offsetTopic, settings.offsetTopicReplicationFactor(),
                    settings.offsetTopicMinInsyncReplicas());
            offsetTopicReady = true;
        }
    }
}

package dev.payments.outbox.relay;

import dev.payments.outbox.config.OutboxProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes the outbox table to Kafka. Every replica of a service runs one; the one holding the {@link RelayLease}
 * publishes, the others stand by and take over when it dies or freezes. While the replication slot is healthy the
 * Debezium embedded engine streams it; when the slot is missing or lost, or the engine keeps failing, the
 * {@link PollingRelay} publishes from the same table until a new slot is taken into use. Both start from the
 * published watermark the other recorded ({@link RelayProgress}), so a hand-over in either direction leaves no gap;
 * what both send at a hand-over is absorbed by the consumers' inboxes. The engine's offsets live in a compacted Kafka
 * topic so they survive a pod that is replaced, and a graceful stop flushes them.
 */
public final class OutboxRelay implements SmartLifecycle {

    /** What this replica's relay is doing. */
    public enum State {
        /** Not started, or stopped with the application. */
        STOPPED,
        /** Another replica holds the lease, or this one is waiting to retry after a failure. */
        STANDBY,
        /** This replica holds the lease and publishes the outbox. */
        ACTIVE
    }

    /**
     * What the health endpoint shows.
     *
     * @param publisher  the relay publishing now on this replica ({@code debezium}, {@code polling}), null on a standby
     * @param slot       the slot as last checked, null when this replica does not know it
     * @param degraded   why the polling relay stands in for Debezium after a failure, null when it does not
     * @param backlog    rows not yet known to be published and the oldest one's age, null on a standby
     */
    public record Status(State state, boolean alive, String slotName, String publisher, String slot, String degraded,
                         Long unpublishedRows, Double oldestUnpublishedSeconds) {
    }

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration ENGINE_HEALTHY_AFTER = Duration.ofMinutes(1);
    private static final AtomicLong INSTANCES = new AtomicLong();

    private final PostgresTarget target;
    private final KafkaConnection kafka;
    private final OutboxProperties.Relay settings;
    private final String slotName;
    private final String offsetTopic;
    private final Clock clock;
    private final RelayMetrics metrics;
    private final ReplicationSlot slot;
    private final RelayProgress progress;
    private final PollingRelay polling;
    private final DebeziumRelay debezium;
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private volatile boolean running;
    private volatile RelaySession session;
    private volatile String degraded;
    private volatile boolean offsetTopicReady;
    private Thread loop;

    public OutboxRelay(String jdbcUrl, String username, String password, KafkaConnection kafka,
                       OutboxProperties properties, String applicationName, MeterRegistry meters, Clock clock) {
        this(jdbcUrl, username, password, kafka, properties, applicationName, meters, clock,
                PublishTracing.NONE);
    }

    /** @param tracing how both relays send a record ({@link TracedPublishing}: a PRODUCER span per event) */
    public OutboxRelay(String jdbcUrl, String username, String password, KafkaConnection kafka,
                       OutboxProperties properties, String applicationName, MeterRegistry meters, Clock clock,
                       PublishTracing tracing) {
        this.target = PostgresTarget.parse(jdbcUrl, username, password);
        this.kafka = kafka;
        this.settings = properties.relay();
        String serviceName = applicationName.replaceAll("[^A-Za-z0-9]", "_").toLowerCase();
        this.slotName = Optional.ofNullable(settings.slotName()).orElse("outbox_" + serviceName);
        this.offsetTopic = Optional.ofNullable(settings.offsetTopic()).orElse("_outbox-offsets." + applicationName);
        this.clock = clock;
        this.metrics = new RelayMetrics(meters, slotName);
        this.slot = new ReplicationSlot(slotName);
        this.progress = new RelayProgress(slotName);
        this.polling = new PollingRelay(settings.polling(), metrics, clock, tracing);
        // Engines of two relays in one JVM (tests, a drill) must not share JMX names.
        String instance = Long.toString(INSTANCES.incrementAndGet(), 36) + Long.toString(System.nanoTime() % 46_656, 36);
        this.debezium = new DebeziumRelay(engineName -> {
            Properties p = new DebeziumSettings(target, engineName, slotName, offsetTopic, kafka, settings)
                    .toProperties();
            p.setProperty("custom.metric.tags", "relay=" + instance);
            return p;
        }, metrics, clock, tracing);
        Gauge.builder("outbox.relay.active", this, relay -> relay.state() == State.ACTIVE ? 1 : 0)
                .description("1 when this replica holds the relay lease and publishes the outbox").register(meters);
    }

    /** ACTIVE only while the lease is valid: a holder cut off from the database stops claiming it on its own clock. */
    public State state() {
        if (!running) {
            return State.STOPPED;
        }
        RelaySession current = session;
        return current != null && current.lease().isValid() ? State.ACTIVE : State.STANDBY;
    }

    /** False when the relay should be running but its thread is gone: nothing would be published any more. */
    public boolean isAlive() {
        return !running || (loop != null && loop.isAlive());
    }

    public Status status() {
        RelayMetrics.Publisher publisher = metrics.publisher();
        SlotStatus slotStatus = metrics.slot();
        RelayMetrics.Backlog backlog = metrics.backlog();
        return new Status(state(), isAlive(), slotName, publisher == null ? null : RelayMetrics.tag(publisher),
                slotStatus == null ? null : slotStatus.condition().name(), degraded,
                backlog == null ? null : backlog.rows(), backlog == null ? null : backlog.oldestAgeSeconds());
    }

    public String slotName() {
        return slotName;
    }

    @Override
    public void start() {
        running = true;
        loop = new Thread(this::electAndPublish, "outbox-relay");
        loop.setDaemon(true);
        loop.start();
    }

    @Override
    public void stop() {
        running = false;
        stopSignal.countDown();
        if (loop != null) {
            try {
                // Bounded: with Kafka already gone the engine cannot flush; the offsets it could not commit are
                // sent again after the restart and the consumers' inboxes absorb them.
                loop.join(STOP_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stop late (after the web server and the listeners), so events of in-flight requests still get out. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }

    private void electAndPublish() {
        while (running) {
            Duration pause = settings.standbyRetry();
            try {
                Optional<RelayLease> lease = RelayLease.tryAcquire(target, slotName, settings.leaseTimeout());
                if (lease.isPresent()) {
                    try (RelaySession tenure = open(lease.get())) {
                        session = tenure;
                        log.info("Outbox relay {} is active", slotName);
                        publish(tenure);
                    }
                    pause = settings.restartBackoff();
                }
            } catch (Exception | LinkageError | java.util.ServiceConfigurationError e) {
                // Whatever broke this attempt, the relay must come back: a dead relay thread in a healthy-looking
                // service means no event leaves again (the pg-flaky drill).
                RelaySession ended = session;
                if (ended != null && ended.lease().expired()) {
                    log.warn("Outbox relay {} lost its lease ({}); standing by", slotName, e.toString());
                } else {
                    log.error("Outbox relay {} failed; retrying in {}", slotName, settings.restartBackoff(), e);
                }
                pause = settings.restartBackoff();
            } finally {
                session = null;
                // A standby speaks for nothing: whoever holds the lease now reports the slot and any fallback.
                degraded = null;
                metrics.standingBy();
            }
            awaitStop(pause);
        }
    }

    private RelaySession open(RelayLease lease) throws SQLException {
        Connection work = null;
        try {
            // Bounded like the lease's own: a relay thread stuck on a silent database could not stop its engine.
            work = target.connect(RelayLease.socketTimeout(settings.leaseTimeout()));
            return new RelaySession(lease, work, newProducer(), progress);
        } catch (SQLException | RuntimeException e) {
            if (work != null) {
                work.close();
            }
            lease.close();
            throw e;
        }
    }

    /** Publishes for as long as this tenure lasts, choosing the relay the slot allows. */
    private void publish(RelaySession session) throws Exception {
        int fenced = session.lease().fenceOtherStreams(slotName);
        if (fenced > 0) {
            log.warn("Outbox relay {}: ended {} stream(s) of the slot left by a holder that lost its lease", slotName, fenced);
        }
        int engineFailures = 0;
        while (running && session.lease().renewIfDue()) {
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
            DebeziumRelay.Outcome outcome = stream(session, recorded.engineName());
            switch (outcome) {
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
                        awaitStop(settings.restartBackoff());
                    }
                }
            }
        }
    }

    private DebeziumRelay.Outcome stream(RelaySession session, String engineName) throws Exception {
        ensureOffsetTopic();
        metrics.publishing(RelayMetrics.Publisher.DEBEZIUM);
        DebeziumWatermark watermark = new DebeziumWatermark(slotName);
        Every watermarkDue = new Every(settings.watermarkInterval());
        Every slotCheckDue = new Every(settings.slotCheckInterval());
        return debezium.run(session, engineName, () -> running, () -> {
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
        Every backlogDue = new Every(settings.slotCheckInterval());
        while (running && session.lease().renewIfDue()) {
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
                awaitStop(polling.interval());
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

    private Producer<String, String> newProducer() {
        Properties p = new Properties();
        p.putAll(kafka.properties());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "outbox-relay-" + slotName);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return new KafkaProducer<>(p);
    }

    private void awaitStop(Duration pause) {
        try {
            stopSignal.await(pause.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** True once per interval, the first time at once. */
    private final class Every {
        private final Duration interval;
        private Instant next = Instant.MIN;

        Every(Duration interval) {
            this.interval = interval;
        }

        boolean now() {
            Instant at = clock.instant();
            if (at.isBefore(next)) {
                return false;
            }
            next = at.plus(interval);
            return true;
        }
    }
}

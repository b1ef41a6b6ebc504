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
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes the outbox table to Kafka. Every replica of a service runs one; the one holding the {@link RelayLease}
 * publishes, the others stand by and take over when it dies or freezes. This class is the election and the lifecycle;
 * what a tenure publishes with (Debezium while the slot is healthy, the polling relay while it is not) is
 * {@link PublisherFailover}'s. A hand-over in either direction leaves no gap, and what both send at a hand-over is
 * absorbed by the consumers' inboxes. The engine's offsets live in a compacted Kafka topic so they survive a pod that
 * is replaced, and a graceful stop flushes them.
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
    private static final AtomicLong INSTANCES = new AtomicLong();

    private final PostgresTarget target;
    private final KafkaConnection kafka;
    private final OutboxProperties.Relay settings;
    private final String slotName;
    private final RelayMetrics metrics;
    private final RelayProgress progress;
    private final PublisherFailover failover;
    private final RelayStop stop = new RelayStop();
    private volatile RelaySession session;
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
        String offsetTopic = Optional.ofNullable(settings.offsetTopic()).orElse("_outbox-offsets." + applicationName);
        this.metrics = new RelayMetrics(meters, slotName);
        this.progress = new RelayProgress(slotName);
        // Engines of two relays in one JVM (tests, a drill) must not share JMX names.
        String instance = Long.toString(INSTANCES.incrementAndGet(), 36) + Long.toString(System.nanoTime() % 46_656, 36);
        DebeziumRelay debezium = new DebeziumRelay(engineName -> {
            Properties p = new DebeziumSettings(target, engineName, slotName, offsetTopic, kafka, settings)
                    .toProperties();
            p.setProperty("custom.metric.tags", "relay=" + instance);
            return p;
        }, metrics, clock, tracing);
        this.failover = new PublisherFailover(slotName, offsetTopic, settings, kafka, metrics,
                new PollingRelay(settings.polling(), metrics, clock, tracing), debezium, stop, clock);
        Gauge.builder("outbox.relay.active", this, relay -> relay.state() == State.ACTIVE ? 1 : 0)
                .description("1 when this replica holds the relay lease and publishes the outbox").register(meters);
    }

    /** ACTIVE only while the lease is valid: a holder cut off from the database stops claiming it on its own clock. */
    public State state() {
        if (!stop.running()) {
            return State.STOPPED;
        }
        RelaySession current = session;
        return current != null && current.lease().isValid() ? State.ACTIVE : State.STANDBY;
    }

    /** False when the relay should be running but its thread is gone: nothing would be published any more. */
    public boolean isAlive() {
        return !stop.running() || (loop != null && loop.isAlive());
    }

    public Status status() {
        RelayMetrics.Publisher publisher = metrics.publisher();
        SlotStatus slotStatus = metrics.slot();
        RelayMetrics.Backlog backlog = metrics.backlog();
        return new Status(state(), isAlive(), slotName, publisher == null ? null : RelayMetrics.tag(publisher),
                slotStatus == null ? null : slotStatus.condition().name(), failover.degraded(),
                backlog == null ? null : backlog.rows(), backlog == null ? null : backlog.oldestAgeSeconds());
    }

    public String slotName() {
        return slotName;
    }

    @Override
    public void start() {
        stop.started();
        loop = new Thread(this::electAndPublish, "outbox-relay");
        loop.setDaemon(true);
        loop.start();
    }

    @Override
    public void stop() {
        stop.stop();
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
        return stop.running();
    }

    /** Stop late (after the web server and the listeners), so events of in-flight requests still get out. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }

    private void electAndPublish() {
        while (stop.running()) {
            Duration pause = settings.standbyRetry();
            try {
                Optional<RelayLease> lease = RelayLease.tryAcquire(target, slotName, settings.leaseTimeout());
                if (lease.isPresent()) {
                    try (RelaySession tenure = open(lease.get())) {
                        session = tenure;
                        log.info("Outbox relay {} is active", slotName);
                        failover.publish(tenure);
                    }
                    pause = settings.restartBackoff();
                }
            } catch (Exception | LinkageError | java.util.ServiceConfigurationError e) {
                // Whatever broke this attempt, the relay must come back: a dead relay thread in a healthy-looking
                // service means no event leaves again.
                RelaySession ended = session;
                if (ended != null && ended.lease().expired()) {
                    log.warn("Outbox relay {} lost its lease ({}); standing by", slotName, e.toString());
                } else {
                    log.error("Outbox relay {} failed; retrying in {}", slotName, settings.restartBackoff(), e);
                }
                pause = settings.restartBackoff();
            } finally {
                session = null;
                failover.standingBy();
            }
            stop.await(pause);
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
}

package dev.payments.outbox.relay;

import dev.payments.outbox.config.OutboxProperties;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Streams the outbox table to Kafka with the Debezium embedded engine. Every replica of a service runs one; the one
 * holding the {@link RelayLease} streams, the others stand by and take over when it dies. The engine's offsets live
 * in a compacted Kafka topic so they survive a pod that is replaced, and a graceful stop flushes them.
 */
public final class OutboxRelay implements SmartLifecycle {

    /** What this replica's relay is doing. */
    public enum State {
        /** Not started, or stopped with the application. */
        STOPPED,
        /** Another replica holds the lease, or this one is waiting to retry after a failure. */
        STANDBY,
        /** This replica streams the outbox. */
        ACTIVE
    }

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final PostgresTarget target;
    private final String bootstrapServers;
    private final OutboxProperties properties;
    private final String slotName;
    private final String offsetTopic;
    private final MeterRegistry meters;
    private final Clock clock;
    private final AtomicReference<State> state = new AtomicReference<>(State.STOPPED);
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private volatile boolean running;
    private final OutboxCleanup cleanup;
    private final SlotMonitor slotMonitor;
    private Thread loop;

    public OutboxRelay(String jdbcUrl, String username, String password, String bootstrapServers,
                       OutboxProperties properties, String applicationName, MeterRegistry meters, Clock clock) {
        this.target = PostgresTarget.parse(jdbcUrl, username, password);
        this.bootstrapServers = bootstrapServers;
        this.properties = properties;
        String serviceName = applicationName.replaceAll("[^A-Za-z0-9]", "_").toLowerCase();
        this.slotName = Optional.ofNullable(properties.relay().slotName()).orElse("outbox_" + serviceName);
        this.offsetTopic = Optional.ofNullable(properties.relay().offsetTopic()).orElse("_outbox-offsets." + applicationName);
        this.meters = meters;
        this.clock = clock;
        this.cleanup = new OutboxCleanup(target, properties.cleanup().interval(), properties.cleanup().retention(), clock);
        this.slotMonitor = new SlotMonitor(slotName, meters, clock);
        Gauge.builder("outbox.relay.active", state, s -> s.get() == State.ACTIVE ? 1 : 0)
                .description("1 when this replica streams the outbox").register(meters);
    }

    public State state() {
        return state.get();
    }

    /** False when the relay should be running but its thread is gone: nothing would be published any more. */
    public boolean isAlive() {
        return !running || (loop != null && loop.isAlive());
    }

    public String slotName() {
        return slotName;
    }

    /** Removal of rows past their retention; the active relay runs it. */
    public OutboxCleanup cleanup() {
        return cleanup;
    }

    @Override
    public void start() {
        try {
            ReplicationSlot.ensureExists(target, slotName);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create replication slot " + slotName, e);
        }
        running = true;
        state.set(State.STANDBY);
        cleanup.reset();
        loop = new Thread(this::electAndStream, "outbox-relay");
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
        state.set(State.STOPPED);
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

    private void electAndStream() {
        while (running) {
            Duration pause = properties.relay().standbyRetry();
            try {
                Optional<RelayLease> lease = RelayLease.tryAcquire(target, slotName);
                if (lease.isPresent()) {
                    try (RelayLease held = lease.get(); Producer<String, String> producer = newProducer()) {
                        state.set(State.ACTIVE);
                        log.info("Outbox relay {} is active", slotName);
                        stream(held, producer);
                    }
                    pause = properties.relay().restartBackoff();
                }
            } catch (Exception | LinkageError | java.util.ServiceConfigurationError e) {
                // Whatever broke this attempt, the relay must come back: a dead relay thread in a healthy-looking
                // service means no event leaves again (drills: pg-flaky's first run).
                log.error("Outbox relay {} failed; retrying in {}", slotName, properties.relay().restartBackoff(), e);
                pause = properties.relay().restartBackoff();
            } finally {
                state.set(running ? State.STANDBY : State.STOPPED);
                slotMonitor.forget();
            }
            awaitStop(pause);
        }
    }

    private void stream(RelayLease lease, Producer<String, String> producer) throws InterruptedException {
        CountDownLatch engineDone = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(new DebeziumSettings(target, slotName, offsetTopic, bootstrapServers, properties.relay()).toProperties())
                .using((success, message, error) -> {
                    if (!success) {
                        failure.set(error != null ? error : new IllegalStateException(message));
                    }
                    engineDone.countDown();
                })
                .notifying(new KafkaPublisher(producer, clock, meters))
                .build();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "outbox-engine"));
        executor.execute(engine);
        try {
            while (running && !engineDone.await(1, TimeUnit.SECONDS)) {
                if (!lease.isHeld()) {
                    break;
                }
                cleanup.runIfDue();
                slotMonitor.measureIfDue(lease);
            }
        } finally {
            closeQuietly(engine);
            executor.shutdown();
            if (!executor.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Outbox engine of {} did not stop within {}", slotName, STOP_TIMEOUT);
            }
        }
        if (failure.get() != null) {
            log.warn("Outbox engine of {} stopped with an error; it restarts from the last committed offset",
                    slotName, failure.get());
        }
    }

    private Producer<String, String> newProducer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
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

    private static void closeQuietly(DebeziumEngine<?> engine) {
        try {
            engine.close();
        } catch (Exception e) {
            log.warn("Closing the outbox engine failed", e);
        }
    }
}

package dev.payments.outbox.relay;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/** Runs the Debezium embedded engine on the slot for as long as the lease, the slot and the engine itself allow. */
final class DebeziumRelay {

    private static final Logger log = LoggerFactory.getLogger(DebeziumRelay.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration TICK = Duration.ofMillis(200);

    /** Why streaming ended. */
    enum Outcome {
        /** The application stops. */
        STOPPED,
        /** The lease could not be renewed in time: another replica may take over. */
        LEASE_LOST,
        /** The slot is missing or invalidated: the polling relay must cover what it can no longer stream. */
        SLOT_LOST,
        /** The engine stopped on an error (Kafka, the database, a slot that moved past its offsets). */
        ENGINE_FAILED
    }

    /** Checks the relay makes while the engine streams; returns why to stop, or null to go on. */
    @FunctionalInterface
    interface Watch {
        Outcome check() throws Exception;
    }

    private final Function<String, Properties> settings;
    private final RelayMetrics metrics;
    private final Clock clock;
    private final PublishTracing tracing;

    DebeziumRelay(Function<String, Properties> settings, RelayMetrics metrics, Clock clock, PublishTracing tracing) {
        this.tracing = tracing;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
    }

    Outcome run(RelaySession session, String engineName, BooleanSupplier running, Watch watch) throws Exception {
        CountDownLatch engineDone = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        RelayLease lease = session.lease();
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(settings.apply(engineName))
                .using((success, message, error) -> {
                    if (!success) {
                        failure.set(error != null ? error : new IllegalStateException(message));
                    }
                    engineDone.countDown();
                })
                .notifying(new KafkaPublisher(session.producer(), clock, metrics, lease::isValid, tracing))
                .build();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "outbox-engine"));
        executor.execute(engine);
        try {
            while (true) {
                if (!running.getAsBoolean()) {
                    return Outcome.STOPPED;
                }
                if (engineDone.await(TICK.toMillis(), TimeUnit.MILLISECONDS)) {
                    if (failure.get() != null) {
                        log.warn("Outbox engine {} stopped with an error", engineName, failure.get());
                    }
                    return Outcome.ENGINE_FAILED;
                }
                if (!lease.renewIfDue()) {
                    return Outcome.LEASE_LOST;
                }
                Outcome stop = watch.check();
                if (stop != null) {
                    return stop;
                }
            }
        } finally {
            if (engineDone.getCount() > 0) {
                closeQuietly(engine);
            }
            executor.shutdown();
            if (!executor.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                // The publisher refuses every batch once the lease is invalid, so a hung engine publishes nothing.
                log.warn("Outbox engine {} did not stop within {}", engineName, STOP_TIMEOUT);
                executor.shutdownNow();
            }
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

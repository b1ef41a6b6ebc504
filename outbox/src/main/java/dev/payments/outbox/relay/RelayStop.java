package dev.payments.outbox.relay;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Whether the relay should still run, and the one signal every pause of its threads waits on, so that a stop ends a
 * standby's retry pause, a restart back-off and an idle polling relay's wait at once rather than after them.
 */
final class RelayStop {

    private final CountDownLatch signal = new CountDownLatch(1);
    private volatile boolean running;

    void started() {
        running = true;
    }

    void stop() {
        running = false;
        signal.countDown();
    }

    boolean running() {
        return running;
    }

    /** Waits {@code pause} or until the relay stops; an interrupt stops the relay too. */
    void await(Duration pause) {
        try {
            signal.await(pause.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}

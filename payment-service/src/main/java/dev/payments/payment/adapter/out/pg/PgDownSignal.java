package dev.payments.payment.adapter.out.pg;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A retry backoff that ends the moment the reachability breaker leaves CLOSED. Resilience4j's own Retry sleeps
 * through its backoff (its sleep function is one static for every Retry), so a request waiting to try a dead PG again
 * would hold its slot for the 0.5 s + 1 s backoff and the approval breaker would see its failure that much later
 * (docs/resilience.md, "Opening on a PG that is down").
 */
final class PgDownSignal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition transitioned = lock.newCondition();
    private final CircuitBreaker reachability;

    PgDownSignal(CircuitBreaker reachability) {
        this.reachability = reachability;
        reachability.getEventPublisher().onStateTransition(event -> wake());
    }

    private void wake() {
        lock.lock();
        try {
            transitioned.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return true after the full wait with the PG still considered reachable; false as soon as it is not */
    boolean awaitUnlessDown(long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        lock.lock();
        try {
            while (reachability.getState() == CircuitBreaker.State.CLOSED) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                transitioned.awaitNanos(left);
            }
            return false;
        } finally {
            lock.unlock();
        }
    }
}

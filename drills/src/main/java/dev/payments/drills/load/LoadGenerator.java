package dev.payments.drills.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** Sends approvals for prepared orders. Every loop is bounded by the orders given and by a duration. */
public final class LoadGenerator {

    private final ApprovalClient client;
    private final Recorder recorder;

    public LoadGenerator(ApprovalClient client, Recorder recorder) {
        this.client = client;
        this.recorder = recorder;
    }

    public ApprovalClient client() {
        return client;
    }

    /** All {@code orders} at once, one thread each (000's "50 concurrent"); returns when every one has answered. */
    public List<Attempt> burst(List<PreparedOrder> orders, String phase) {
        List<Attempt> results = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, orders.size()), daemon(phase));
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        for (PreparedOrder order : orders) {
            pool.execute(() -> {
                await(start);
                recorder.sending();
                Attempt attempt = client.confirm(order, phase, System.nanoTime());
                recorder.record(attempt);
                results.add(attempt);
            });
        }
        start.countDown();
        shutdown(pool, Duration.ofMinutes(2));
        return results;
    }

    /**
     * Closed loop: {@code concurrency} users, each sending its next approval when the previous one answered, until
     * {@code duration} has passed or the orders run out. Throughput here is what the system allowed, so latency
     * must be read with the arrival-rate run beside it.
     *
     * @return whether the orders ran out before the duration did
     */
    public boolean closedLoop(Iterator<PreparedOrder> orders, int concurrency, Duration duration, String phase) {
        long until = System.nanoTime() + duration.toNanos();
        AtomicInteger exhausted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency, daemon(phase));
        for (int i = 0; i < concurrency; i++) {
            pool.execute(() -> {
                while (System.nanoTime() < until) {
                    PreparedOrder order = next(orders);
                    if (order == null) {
                        exhausted.incrementAndGet();
                        return;
                    }
                    recorder.sending();
                    recorder.record(client.confirm(order, phase, System.nanoTime()));
                }
            });
        }
        shutdown(pool, duration.plusMinutes(1));
        return exhausted.get() > 0;
    }

    /**
     * Open loop: approvals arrive at {@code ratePerSecond} on a fixed schedule whatever the system does, and each
     * latency is measured from its scheduled time (no coordinated omission). At most {@code maxOutstanding} are in
     * flight; an arrival beyond that is counted as not sent rather than delayed.
     */
    public void openLoop(Supplier<PreparedOrder> orders, double ratePerSecond, Duration duration, int maxOutstanding,
                         String phase) {
        long start = System.nanoTime();
        long intervalNanos = (long) (1e9 / ratePerSecond);
        long count = (long) (duration.toNanos() / (double) intervalNanos);
        Semaphore outstanding = new Semaphore(maxOutstanding);
        ExecutorService pool = Executors.newFixedThreadPool(maxOutstanding, daemon(phase));
        for (long i = 0; i < count; i++) {
            long intended = start + i * intervalNanos;
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            PreparedOrder order = orders.get();
            if (order == null) {
                break;
            }
            if (!outstanding.tryAcquire()) {
                recorder.notSent();
                continue;
            }
            pool.execute(() -> {
                try {
                    recorder.sending();
                    recorder.record(client.confirm(order, phase, intended));
                } finally {
                    outstanding.release();
                }
            });
        }
        shutdown(pool, Duration.ofMinutes(2));
    }

    private static synchronized PreparedOrder next(Iterator<PreparedOrder> orders) {
        synchronized (orders) {
            return orders.hasNext() ? orders.next() : null;
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void shutdown(ExecutorService pool, Duration wait) {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "load-" + name + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}

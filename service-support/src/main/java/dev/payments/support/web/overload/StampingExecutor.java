package dev.payments.support.web.overload;

import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

import java.util.concurrent.TimeUnit;

/**
 * Tomcat's own request executor (the same pool and queue its endpoint builds for itself), except that each task
 * remembers when it was handed over: the poller hands a task over as soon as a connection has bytes to read, so
 * the time from then until a worker runs it is how long the request waited in the server's queue, which nothing else
 * in Tomcat records (a request's start time is taken when a worker begins to parse it, after the wait).
 */
final class StampingExecutor extends ThreadPoolExecutor {

    private static final long NONE = Long.MIN_VALUE;
    private static final ThreadLocal<long[]> HANDED_OVER = ThreadLocal.withInitial(() -> new long[] {NONE});

    static StampingExecutor create(String namePrefix, int minSpareThreads, int maxThreads, int maxQueueCapacity,
                                   int maxIdleMillis) {
        TaskQueue queue = new TaskQueue(maxQueueCapacity);
        StampingExecutor executor = new StampingExecutor(minSpareThreads, maxThreads, maxIdleMillis, queue,
                new TaskThreadFactory(namePrefix, true, Thread.NORM_PRIORITY));
        queue.setParent(executor);
        return executor;
    }

    private StampingExecutor(int core, int max, int idleMillis, TaskQueue queue, TaskThreadFactory threads) {
        super(core, max, idleMillis, TimeUnit.MILLISECONDS, queue, threads);
    }

    @Override
    public void execute(Runnable command) {
        super.execute(new Stamped(command, System.nanoTime()));
    }

    /**
     * When the task the current thread runs was handed over, once: a second request read from the same connection
     * by the same task (pipelining) did not wait in the queue and gets nothing.
     *
     * @return {@code System.nanoTime()} of the hand-over, or {@code Long.MIN_VALUE} if there is none
     */
    static long takeHandedOverNanos() {
        long[] slot = HANDED_OVER.get();
        long at = slot[0];
        slot[0] = NONE;
        return at;
    }

    static boolean none(long handedOverNanos) {
        return handedOverNanos == NONE;
    }

    private record Stamped(Runnable task, long handedOverNanos) implements Runnable {

        @Override
        public void run() {
            long[] slot = HANDED_OVER.get();
            slot[0] = handedOverNanos;
            try {
                task.run();
            } finally {
                slot[0] = NONE;
            }
        }
    }
}

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
    private static final ThreadLocal<Slot> CURRENT = ThreadLocal.withInitial(Slot::new);

    /** What the current thread runs: when its task was handed over, and by which executor. */
    static final class Slot {
        private long handedOverNanos = NONE;
        private StampingExecutor executor;
    }

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
        super.execute(new Stamped(command, System.nanoTime(), this));
    }

    /**
     * When the task the current thread runs was handed over, once: a second request read from the same connection
     * by the same task (pipelining) did not wait in the queue and gets nothing.
     *
     * @return {@code System.nanoTime()} of the hand-over, or {@code Long.MIN_VALUE} if there is none
     */
    static long takeHandedOverNanos() {
        Slot slot = CURRENT.get();
        long at = slot.handedOverNanos;
        slot.handedOverNanos = NONE;
        return at;
    }

    static boolean none(long handedOverNanos) {
        return handedOverNanos == NONE;
    }

    /**
     * Whether the current thread's executor has more requests than threads, i.e. some wait in its queue now. A wait
     * with free threads left is not a queue: it is a new thread starting, or the host's CPU shared with other work
     * (on a loaded machine a burst of 50 new threads waited over 100 ms each to run, with 150 threads to spare).
     */
    static boolean queueBehind() {
        StampingExecutor executor = CURRENT.get().executor;
        return executor != null && executor.getSubmittedCount() > executor.getMaximumPoolSize();
    }

    private record Stamped(Runnable task, long handedOverNanos, StampingExecutor executor) implements Runnable {

        @Override
        public void run() {
            Slot slot = CURRENT.get();
            slot.handedOverNanos = handedOverNanos;
            slot.executor = executor;
            try {
                task.run();
            } finally {
                slot.handedOverNanos = NONE;
                slot.executor = null;
            }
        }
    }
}

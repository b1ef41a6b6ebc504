package dev.payments.support.web.overload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * CoDel's rule applied to the time a request waited in the web server's queue before a thread took it (its sojourn):
 * a queue is <em>standing</em> when even the shortest wait of a whole interval was above the target; only then are
 * requests that waited longer than the target refused. A burst that fills the queue for a moment (000's 100
 * confirms at once) leaves an interval with short waits in it and sheds nothing; a service whose CPU cannot keep up
 * with its arrivals keeps a queue that never drains, and sheds what waited too long, so what it admits still answers
 * within its callers' deadlines. No I/O, no clock of its own: the caller passes {@code System.nanoTime()}.
 */
public final class SojournShedding {

    private static final long NO_SAMPLE = Long.MAX_VALUE;

    private final long targetNanos;
    private final long intervalNanos;
    private final LongAccumulator shortestInInterval = new LongAccumulator(Math::min, NO_SAMPLE);
    private final AtomicLong intervalEnds;
    private volatile boolean standing;

    public SojournShedding(long targetNanos, long intervalNanos, long nowNanos) {
        if (targetNanos <= 0 || intervalNanos <= 0) {
            throw new IllegalArgumentException("target and interval must be positive");
        }
        this.targetNanos = targetNanos;
        this.intervalNanos = intervalNanos;
        this.intervalEnds = new AtomicLong(nowNanos + intervalNanos);
    }

    /**
     * Records one request's wait and says whether to refuse it.
     *
     * @return true: refuse it now, cheaply; false: let it through
     */
    public boolean shed(long sojournNanos, long nowNanos) {
        long ends = intervalEnds.get();
        if (nowNanos - ends >= 0 && intervalEnds.compareAndSet(ends, nowNanos + intervalNanos)) {
            long shortest = shortestInInterval.getThenReset();
            // A whole interval without a request (or one without a sample) had no queue: nothing waited.
            boolean idleSince = nowNanos - ends >= intervalNanos;
            standing = !idleSince && shortest != NO_SAMPLE && shortest > targetNanos;
        }
        shortestInInterval.accumulate(sojournNanos);
        return standing && sojournNanos > targetNanos;
    }

    /** Whether the last whole interval had a standing queue (every request in it waited longer than the target). */
    public boolean standing() {
        return standing;
    }
}

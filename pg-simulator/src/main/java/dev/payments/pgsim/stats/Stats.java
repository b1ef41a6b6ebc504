package dev.payments.pgsim.stats;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Thread-safe counters; LongAdder because the hot ones are bumped from every event loop. */
public final class Stats {

    public final LongAdder confirmsReceived = new LongAdder();
    public final LongAdder approvals = new LongAdder();
    public final LongAdder declines = new LongAdder();
    public final LongAdder serverErrors = new LongAdder();
    public final LongAdder cancels = new LongAdder();
    public final LongAdder queries = new LongAdder();
    public final LongAdder idempotentReplays = new LongAdder();
    public final LongAdder droppedResponses = new LongAdder();
    public final LongAdder hangs = new LongAdder();
    public final LongAdder connectionResets = new LongAdder();
    public final LongAdder asyncAccepted = new LongAdder();
    public final AtomicLong inFlight = new AtomicLong();
    public final LongAdder callbacksSent = new LongAdder();
    public final LongAdder callbacksFailed = new LongAdder();
    public final LongAdder callbackAttempts = new LongAdder();
    public final LongAdder clientErrors = new LongAdder();
    public final LongAdder lateBookings = new LongAdder();

    public StatsSnapshot snapshot() {
        return new StatsSnapshot(confirmsReceived.sum(), approvals.sum(), declines.sum(), serverErrors.sum(),
                cancels.sum(), queries.sum(), idempotentReplays.sum(), droppedResponses.sum(), hangs.sum(),
                connectionResets.sum(), asyncAccepted.sum(), inFlight.get(), callbacksSent.sum(), callbacksFailed.sum(),
                callbackAttempts.sum(), clientErrors.sum(), lateBookings.sum());
    }

    /** Zeroes the counters; in-flight stays, since those requests are still open. */
    public void reset() {
        for (LongAdder adder : new LongAdder[] {confirmsReceived, approvals, declines, serverErrors, cancels, queries,
                idempotentReplays, droppedResponses, hangs, connectionResets, asyncAccepted, callbacksSent, callbacksFailed,
                callbackAttempts, clientErrors, lateBookings}) {
            adder.reset();
        }
    }
}

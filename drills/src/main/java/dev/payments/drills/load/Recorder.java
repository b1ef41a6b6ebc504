package dev.payments.drills.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** Every attempt of a drill, and live counters for the progress bar. */
public final class Recorder {

    private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger approved = new AtomicInteger();
    private final AtomicInteger notSent = new AtomicInteger();

    void sending() {
        sent.incrementAndGet();
    }

    void notSent() {
        notSent.incrementAndGet();
    }

    void record(Attempt attempt) {
        attempts.add(attempt);
        done.incrementAndGet();
        if ("approved".equals(attempt.outcome())) {
            approved.incrementAndGet();
        }
    }

    public List<Attempt> attempts() {
        return new ArrayList<>(attempts);
    }

    public int sent() {
        return sent.get();
    }

    public int done() {
        return done.get();
    }

    public int approved() {
        return approved.get();
    }

    /** Open loop: arrivals skipped because the client itself had too many requests outstanding. */
    public int notSentCount() {
        return notSent.get();
    }
}

package dev.payments.testsupport.infra;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock a test moves by hand: deadlines, backoffs and expiries without sleeping. {@link #ticking()} follows the
 * system clock plus what the test moved it by (for a running service whose other parts need time to pass);
 * {@link #at(Instant)} stands still between moves (for a unit under test alone).
 */
public final class MovableClock extends Clock {

    private final boolean ticking;
    private final Instant start;
    private volatile Duration moved = Duration.ZERO;

    private MovableClock(boolean ticking, Instant start) {
        this.ticking = ticking;
        this.start = start;
    }

    public static MovableClock ticking() {
        return new MovableClock(true, null);
    }

    public static MovableClock at(Instant start) {
        return new MovableClock(false, start);
    }

    public synchronized void advance(Duration by) {
        moved = moved.plus(by);
    }

    /** Moves it to {@code instant} (a ticking clock goes on from there). */
    public synchronized void set(Instant instant) {
        moved = Duration.between(ticking ? Instant.now() : start, instant);
    }

    /** Back to where it would be had it never been moved. */
    public void reset() {
        moved = Duration.ZERO;
    }

    @Override
    public Instant instant() {
        return (ticking ? Instant.now() : start).plus(moved);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}

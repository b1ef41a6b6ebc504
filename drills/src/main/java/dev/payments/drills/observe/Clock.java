package dev.payments.drills.observe;

/** Drill time: seconds since the drill's start, one origin for every sample, attempt and mark. */
public final class Clock {

    private final long originNanos;

    public Clock() {
        this(System.nanoTime());
    }

    /** A clock whose second 0 is {@code originNanos} of {@link System#nanoTime()} (tests replay recorded times). */
    public Clock(long originNanos) {
        this.originNanos = originNanos;
    }

    public double seconds() {
        return seconds(System.nanoTime());
    }

    public double seconds(long nanos) {
        return (nanos - originNanos) / 1e9;
    }

    /** The {@link System#nanoTime()} value of drill second {@code seconds}. */
    public long nanos(double seconds) {
        return originNanos + Math.round(seconds * 1e9);
    }
}

package dev.payments.drills.observe;

/** Drill time: seconds since the drill's start, one origin for every sample, attempt and mark. */
public final class Clock {

    private final long originNanos = System.nanoTime();
    private final long originEpochMillis = System.currentTimeMillis();

    public double seconds() {
        return seconds(System.nanoTime());
    }

    public double seconds(long nanos) {
        return (nanos - originNanos) / 1e9;
    }

    public long originEpochMillis() {
        return originEpochMillis;
    }
}

package dev.payments.pgsim.fault;

import dev.payments.pgsim.ledger.DeclineReason;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import reactor.core.publisher.Sinks;

/**
 * An installed {@link FaultSpec} and its decisions. Each kind of decision draws from its own
 * seeded stream, so adding, say, latency to a spec does not shift which requests get a 5xx.
 */
public final class ActiveFault {

    private final FaultSpec spec;
    private final Random connection;
    private final Random latency;
    private final Random error;
    private final Random decline;
    private final Random drop;
    private final Random asyncOutcome;
    private final Random asyncDelay;
    private final Random late;
    /** Completes when this fault is replaced or cleared: hung connections are then closed. */
    private final Sinks.Empty<Void> released = Sinks.empty();
    /** Set when the spec injects nothing: the hot path then skips the lock and the draws. */
    private final RequestPlan quietPlan;

    ActiveFault(FaultSpec specWithSeed) {
        this.spec = specWithSeed;
        long seed = specWithSeed.seed();
        this.connection = stream(seed, 1);
        this.latency = stream(seed, 2);
        this.error = stream(seed, 3);
        this.decline = stream(seed, 4);
        this.drop = stream(seed, 5);
        this.asyncOutcome = stream(seed, 6);
        this.asyncDelay = stream(seed, 7);
        this.late = stream(seed, 8);
        boolean quiet = spec.latency() == null && spec.errorRate() == 0 && spec.declineRate() == 0
                && spec.dropResponseRate() == 0 && !spec.hang() && spec.connectionFault() == null && spec.async() == null
                && spec.lateBooking() == null && spec.amountDelta() == 0;
        this.quietPlan = quiet
                ? new RequestPlan(false, false, Duration.ZERO, OptionalInt.empty(), Optional.empty(), Optional.empty(), false,
                        spec.dropMode(), Optional.empty(), 0, released.asMono())
                : null;
    }

    /** The outcome of asynchronous processing, decided when the confirm arrives. */
    public record AsyncOutcome(Optional<DeclineReason> decline, Duration delay, String callbackUrl) {
    }

    public FaultSpec spec() {
        return spec;
    }

    /**
     * Draws this request's decisions. Every stream is drawn once per request, whatever the
     * outcome, under one lock: the n-th request in this scope gets the n-th value of every stream,
     * which is what makes a seeded scenario replay identically.
     */
    public RequestPlan plan() {
        return quietPlan != null ? quietPlan : draw();
    }

    private synchronized RequestPlan draw() {
        ConnectionFault connectionFault = spec.connectionFault();
        boolean reset = draw(connection, connectionFault == null || connectionFault.mode() != ConnectionFault.Mode.RESET
                ? 0.0 : connectionFault.rate());
        Duration delay = spec.latency() == null ? Duration.ZERO : spec.latency().sample(latency);
        OptionalInt serverError = draw(error, spec.errorRate()) ? OptionalInt.of(spec.errorStatus()) : OptionalInt.empty();
        Optional<DeclineReason> declined = draw(decline, spec.declineRate()) ? Optional.of(spec.declineCode()) : Optional.empty();
        Optional<AsyncOutcome> asyncOutcome = async();
        boolean dropped = draw(drop, spec.dropResponseRate());
        LateBooking lateBooking = spec.lateBooking();
        boolean bookLate = draw(late, lateBooking == null ? 0.0 : lateBooking.rate());
        return new RequestPlan(reset, spec.hang(), delay, serverError, declined, asyncOutcome, dropped, spec.dropMode(),
                bookLate ? Optional.of(lateBooking) : Optional.empty(), spec.amountDelta(),
                released.asMono());
    }

    private Optional<AsyncOutcome> async() {
        AsyncProcessing async = spec.async();
        if (async == null) {
            return Optional.empty();
        }
        boolean fails = draw(asyncOutcome, 1.0 - async.successRate());
        DeclineReason reason = async.pickDecline(asyncOutcome.nextDouble());
        Duration delay = async.delay().sample(asyncDelay);
        return Optional.of(new AsyncOutcome(fails ? Optional.of(reason) : Optional.empty(), delay, async.callbackUrl()));
    }

    void release() {
        released.tryEmitEmpty();
    }

    private static boolean draw(Random random, double rate) {
        return random.nextDouble() < rate;
    }

    private static Random stream(long seed, int index) {
        // Distinct, well-mixed seeds per stream (golden-ratio increment, as in SplitMix64).
        return new Random(seed + index * 0x9E3779B97F4A7C15L);
    }
}

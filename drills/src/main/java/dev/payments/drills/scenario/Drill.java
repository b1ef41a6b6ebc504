package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.load.ApprovalClient;
import dev.payments.drills.load.Attempt;
import dev.payments.localstack.http.Http;
import dev.payments.drills.load.LoadGenerator;
import dev.payments.drills.load.OrderBook;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ConsumerLag;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.Timeline;
import dev.payments.drills.stack.Target;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/** What a scenario works with: the load, the PG's fault switch, the stack's controls, and marks on the timeline. */
public final class Drill {

    private final Target target;
    private final Http http;
    private final Clock clock;
    private final Timeline timeline;
    private final Recorder recorder;
    private final OrderBook orders;
    private final LoadGenerator load;
    private final Map<String, Object> extra = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final List<DrillResult.Check> checks = new ArrayList<>();
    private volatile String phase = "prepare";
    private volatile String detail = "";
    private volatile Runnable recoveryListener;
    private volatile boolean recoveryStarted;

    Drill(Target target, Http http, Clock clock, Recorder recorder, OrderBook orders) {
        this.target = target;
        this.http = http;
        this.clock = clock;
        this.timeline = new Timeline(clock);
        this.recorder = recorder;
        this.orders = orders;
        this.load = new LoadGenerator(new ApprovalClient(http, target.endpoints().order(), target.endpoints().payment(), target.tokens()),
                recorder);
    }

    public Target target() {
        return target;
    }

    public Http http() {
        return http;
    }

    public OrderBook orders() {
        return orders;
    }

    public Clock clock() {
        return clock;
    }

    public LoadGenerator load() {
        return load;
    }

    public Recorder recorder() {
        return recorder;
    }

    /**
     * {@code approvals} of the book's next orders against the healthy PG, 5 at a time, 30 s at most. Five, not ten:
     * 000's broken structures warm up too, and ten at a time would take all ten connections of their pool and wait
     * for an eleventh each (their deadlock) before the drill began.
     */
    void warmUp(int approvals) {
        phase("warm-up");
        load.closedLoop(orders.take(approvals).iterator(), 5, Duration.ofSeconds(30), "warm-up");
    }

    public void phase(String name) {
        this.phase = name;
        timeline.mark(name);
    }

    public String phase() {
        return phase;
    }

    public void detail(String text) {
        this.detail = text;
    }

    public String detail() {
        return detail;
    }

    public double mark(String name) {
        return timeline.mark(name);
    }

    Timeline timeline() {
        return timeline;
    }

    /** The simulator's admin JSON for confirms answered {@code ms} late, and nothing else wrong. */
    static String pgLatency(int ms) {
        return "{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":" + ms + "}}";
    }

    /** Installs a PG fault (the simulator's admin JSON) and marks the moment as the fault. */
    public void fault(String json) {
        pgFaults(json);
        faultInjected();
    }

    /**
     * Replaces the PG's faults (the simulator's admin JSON) without marking a fault: a condition of the scenario
     * (a latency it runs under) or a change of a fault already marked.
     */
    public void pgFaults(String json) {
        Http.Response r = http.put(target.endpoints().pgAdmin() + "/admin/faults", json, Duration.ofSeconds(10));
        if (!r.ok()) {
            throw new IllegalStateException("PG simulator refused the fault " + json + ": " + r.status() + " " + r.body());
        }
    }

    /** Marks the moment something was broken (detection times are measured from the first such mark). */
    public void faultInjected() {
        timeline.mark(Timeline.FAULT);
    }

    /** Clears every PG fault (hung requests are closed) and marks the recovery. */
    public void clearFaults() {
        http.delete(target.endpoints().pgAdmin() + "/admin/faults", Duration.ofSeconds(10));
        recovered();
    }

    /** Clears PG faults without calling it a recovery (set-up). */
    void resetFaults() {
        http.delete(target.endpoints().pgAdmin() + "/admin/faults", Duration.ofSeconds(10));
    }

    /**
     * Marks the moment the broken part is healthy again; time to recover is measured from the first such mark, over
     * the payments sent before it.
     */
    public void recovered() {
        double t = timeline.mark(Timeline.RECOVERED);
        Runnable listener = recoveryListener;
        if (listener != null && !recoveryStarted) {
            recoveryStarted = true;
            listener.run();
        }
        detail("recovered at " + String.format("%.1f s", t));
    }

    void onRecovered(Runnable listener) {
        this.recoveryListener = listener;
    }

    boolean recoveryStarted() {
        return recoveryStarted;
    }

    /** Stops, starts, restarts or kills a component of the stack; marks before and after. */
    public void control(String component, String action) {
        timeline.mark(action + " " + component);
        target.control(component, action);
        timeline.mark(action + " " + component + " done");
    }

    /** The pg-approve breaker as payment-service's metrics show it: CLOSED, OPEN, HALF_OPEN, or null if down. */
    public String breakerState() {
        return MetricsSampler.breakerState(http, target.endpoints().paymentManagement(), Duration.ofSeconds(1));
    }

    /** Waits (bounded) until the breaker is in {@code state}; returns whether it got there. */
    public boolean awaitBreaker(String state, Duration patience) {
        long until = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < until) {
            if (state.equals(breakerState())) {
                return true;
            }
            sleep(Duration.ofMillis(100));
        }
        return false;
    }

    /** Runs {@code body} on its own thread (e.g. a burst while an arrival-rate load goes on). */
    public Thread background(String name, Runnable body) {
        Thread thread = new Thread(body, "drill-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * The recovery's tail every outage-like scenario shares: marks the recovery, runs the load {@code after} more,
     * then ends the open-ended arrival schedule (it stops when no more orders are handed out) and waits for it.
     */
    public void recoveredThenStop(Thread load, Duration after) {
        recovered();
        phase("after");
        sleep(after);
        stopArrivals(load);
    }

    /** Arrivals at {@code rate}/s on their own thread, open-ended: they stop with {@link #stopArrivals}. */
    public Thread arrivals(double rate) {
        return arrivals(load, rate, "arrivals");
    }

    Thread arrivals(LoadGenerator through, double rate, String name) {
        return background("arrivals", () -> through.openLoop(orders::next, rate, Duration.ofDays(1), 300, name));
    }

    /** Ends open-ended arrivals (they stop when no more orders are handed out) and waits for them. */
    public void stopArrivals(Thread arrivals) {
        phase("stopping load");
        orders.exhaust();
        join(arrivals);
    }

    public static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public List<Attempt> burst(int n, String phaseName) {
        phase(phaseName);
        List<PreparedOrder> batch = orders.take(n);
        return load.burst(batch, phaseName);
    }

    /** Drill time at which every service's consumer group had lag 0, or null if not within {@code patience}. */
    public Double awaitConsumersCaughtUp(Duration patience) {
        long until = System.nanoTime() + patience.toNanos();
        try (ConsumerLag lag = new ConsumerLag(target.kafkaClient())) {
            while (System.nanoTime() < until) {
                Map<String, Long> behind = lag.read();
                if (behind != null && !behind.isEmpty() && behind.values().stream().allMatch(n -> n == 0)) {
                    return clock.seconds();
                }
                sleep(Duration.ofMillis(500));
            }
        }
        return null;
    }

    public void sleep(Duration duration) {
        LockSupport.parkNanos(duration.toNanos());
    }

    /** A finding for the report (scaled-down parameter, an explanation). */
    public void note(String text) {
        notes.add(text);
    }

    /** A pass/fail finding of this scenario's own, beside the common ones: it decides the exit status too. */
    public void check(String name, boolean passed, String detail) {
        checks.add(new DrillResult.Check(name, passed, detail));
    }

    List<DrillResult.Check> checks() {
        return checks;
    }

    public void extra(String key, Object value) {
        extra.put(key, value);
    }

    Map<String, Object> extras() {
        return extra;
    }

    List<String> notes() {
        return notes;
    }
}

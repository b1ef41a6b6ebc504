package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;

import java.time.Duration;
import java.util.List;

/**
 * A part of the stack taken away under an arrival-rate load and given back: PostgreSQL or the Kafka broker stopped
 * (db-outage, kafka-outage), or a service killed with SIGKILL mid-flight (crash). The load runs on throughout.
 */
public final class Outage extends BaseScenario {

    private final String name;
    private final String component;
    private final String breakAction;
    private final double rate;
    private final int beforeSeconds;
    private final int outageSeconds;
    private final int afterSeconds;
    private final int pgLatencyMs;

    public Outage(String name, String component, String breakAction, double rate, int beforeSeconds,
                  int outageSeconds, int afterSeconds, int pgLatencyMs) {
        this.name = name;
        this.component = param("component", component);
        this.breakAction = param("action", breakAction);
        this.rate = param("arrivalsPerSecond", rate);
        this.beforeSeconds = param("beforeSeconds", beforeSeconds);
        this.outageSeconds = param("outageSeconds", outageSeconds);
        this.afterSeconds = param("afterSeconds", afterSeconds);
        this.pgLatencyMs = param("pgLatencyMs", pgLatencyMs);
        unlimitedMembers();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String fieldReport() {
        return "issue 6";
    }

    @Override
    public String description() {
        return component + " " + ("kill".equals(breakAction) ? "killed (kill -9)" : "stopped") + " after "
                + beforeSeconds + " s of " + rate + " approvals/s (PG at " + pgLatencyMs + " ms), "
                + ("kill".equals(breakAction) ? "restarted at once" : "started again " + outageSeconds + " s later")
                + ", load for " + afterSeconds + " s more";
    }

    @Override
    public int ordersNeeded() {
        return (int) Math.ceil(rate * (beforeSeconds + outageSeconds + afterSeconds + 120)) + 10;
    }

    @Override
    public void run(Drill drill) {
        if (pgLatencyMs > 0) {
            drill.pgFaults("{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":" + pgLatencyMs + "}}");
        }
        drill.phase("before");
        Thread load = drill.background("arrivals", () -> drill.load().openLoop(drill.orders()::next, rate,
                Duration.ofDays(1), 300, "arrivals"));
        drill.sleep(Duration.ofSeconds(beforeSeconds));
        drill.phase(component + " " + breakAction);
        drill.faultInjected();
        drill.control(component, breakAction);
        if ("kill".equals(breakAction)) {
            drill.control(component, "start");
        } else {
            drill.sleep(Duration.ofSeconds(outageSeconds));
            drill.control(component, "start");
        }
        drill.recovered();
        drill.phase("after");
        drill.sleep(Duration.ofSeconds(afterSeconds));
        drill.phase("stopping load");
        stop(drill, load);
    }

    private static void stop(Drill drill, Thread load) {
        // The arrival schedule is open-ended; it ends when the scenario stops handing out orders.
        drill.orders().exhaust();
        Drill.join(load);
    }

    @Override
    public List<Target> targets(Measurements r) {
        Double caughtUp = r.recover().consumersCaughtUpAfter();
        return List.of(
                new Target("every payment settled after " + component + " is back", "<= 30 s", settledText(r),
                        settledWithin(r, 30)),
                new Target("consumers caught up after " + component + " is back", "<= 30 s", Stats.s(caughtUp),
                        caughtUp == null ? Boolean.FALSE : caughtUp <= 30));
    }
}

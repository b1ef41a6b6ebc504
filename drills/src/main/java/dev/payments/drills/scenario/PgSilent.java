package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;

/**
 * 000 / 002: the PG accepts connections and never answers (approvals and status queries). {@code concurrent}
 * approvals at once, and beside them an arrival-rate load; once the breaker is open, a measured window of arrivals;
 * then the PG recovers and a trickle lets the half-open trials close the breaker.
 */
@Command(name = "pg-silent", description = "000/002: PG accepts and never answers; breaker; recovery.")
class PgSilent extends BaseScenario {

    @Option(names = "--concurrent", description = "Approvals released at once when the PG falls silent.")
    int concurrent = 50;
    @Option(names = "--rate", description = "Arrivals per second beside the burst.")
    double rate = 100;
    @Option(names = "--open-window", description = "Seconds of arrivals with the breaker open.")
    int openWindowSeconds = 10;
    @Option(names = "--max-wait-open", description = "Seconds of arrivals at most until the breaker opens.")
    int maxWaitForOpenSeconds = 30;
    @Option(names = "--trickle", description = "Seconds of 1/s after the PG recovers.")
    int trickleSeconds = 40;
    @Mixin
    WarmUp warmUp = new WarmUp();

    @Override
    protected void configure(Settings settings) {
        settings.unlimitedMembers();
    }

    @Override
    public int warmupApprovals() {
        return warmUp.approvals;
    }

    @Override
    public String fieldReport() {
        return "000";
    }

    @Override
    public String description() {
        return "PG silent (accepts, never answers; queries too). " + concurrent + " concurrent approvals plus "
                + rate + " arrivals/s until the breaker opens, " + openWindowSeconds + " s of arrivals with it open, then"
                + " the PG recovers and 1 arrival/s for " + trickleSeconds + " s (000: 50 concurrent, 30 s per request"
                + " before the breaker; then 0.5 s 503s)";
    }

    @Override
    public int ordersNeeded() {
        return concurrent + (int) Math.ceil(rate * (maxWaitForOpenSeconds + openWindowSeconds))
                + trickleSeconds + 5;
    }

    /** The simulator's fault (admin JSON) that starts the outage; {@link PgDown} puts another one in its place. */
    protected String fault() {
        return "{\"operation\":\"all\",\"hang\":true}";
    }

    @Override
    public void run(Drill drill) {
        drill.fault(fault());
        Thread burst = drill.background("burst", () -> drill.load().burst(drill.orders().take(concurrent),
                "burst-" + concurrent));
        drill.phase("arrivals, breaker closed");
        Thread arrivals = drill.background("arrivals", () -> drill.load().openLoop(drill.orders()::next, rate,
                Duration.ofSeconds(maxWaitForOpenSeconds), 400, "arrivals-before-open"));
        boolean opened = drill.awaitBreaker("OPEN", Duration.ofSeconds(maxWaitForOpenSeconds));
        Drill.join(arrivals);
        if (!opened) {
            drill.note("the breaker did not open within " + maxWaitForOpenSeconds + " s of the fault");
        }
        drill.phase("arrivals, breaker open");
        drill.load().openLoop(drill.orders()::next, rate, Duration.ofSeconds(openWindowSeconds), 400,
                "arrivals-breaker-open");
        Drill.join(burst);
        drill.clearFaults();
        drill.phase("recovery trickle");
        drill.load().openLoop(drill.orders()::next, 1, Duration.ofSeconds(trickleSeconds), 50, "recovery-trickle");
    }

    @Override
    public List<Target> targets(Measurements r) {
        Double p99 = r.phases().stream().filter(p -> p.name().equals("arrivals-breaker-open")).findFirst()
                .map(p -> p.latency().p99()).orElse(null);
        Double open = r.detect().breakerOpenAfter();
        Double alert = r.detect().alertPendingAfter();
        return List.of(
                new Target("p99 while open", "<= 10 ms (000: 0.5 s)", Stats.ms(p99), atMost(p99, 10)),
                new Target("breaker open after the fault", "<= 0.15 s at >= 100/s (002: 169 ms)", Stats.s(open),
                        rate >= 100 ? atMost(open, 0.15) : null),
                new Target("alert condition true after the fault", "<= 75 s (000: 2 min 3 s)", Stats.s(alert),
                        atMost(alert, 75)),
                new Target("every UNKNOWN settled after the PG recovers", "<= 30 s", settledText(r),
                        settledWithin(r, 30)));
    }
}

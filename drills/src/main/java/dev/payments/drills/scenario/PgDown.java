package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * pg-silent's load against a PG that is down rather than silent - it refuses connections (its port
 * unbound) or answers every call with a 5xx. Nothing hangs, so the question is only how soon the breaker stops
 * sending: the goal is OPEN within 150 ms of the fault at 100 arrivals/s (002 measured 169 ms).
 */
@Command(name = "pg-down", description = "002: PG refuses connections (or answers 5xx); how soon the breaker opens.")
final class PgDown extends PgSilent {

    enum Mode { refuse, error }

    @Option(names = "--mode", description = "refuse: the PG's port refuses connections; error: every call answered "
            + "with --error-status.")
    Mode mode = Mode.refuse;
    @Option(names = "--error-status", description = "The 5xx of --mode error.")
    int errorStatus = 503;

    PgDown() {
        maxWaitForOpenSeconds = 10;
    }

    @Override
    protected String fault() {
        return mode == Mode.refuse ? "{\"operation\":\"all\",\"connectionFault\":{\"mode\":\"REFUSE\"}}"
                : "{\"operation\":\"all\",\"errorRate\":1.0,\"errorStatus\":" + errorStatus + "}";
    }

    @Override
    public String description() {
        return "PG down: " + (mode == Mode.refuse ? "connections refused" : "every call answered " + errorStatus)
                + ". " + concurrent + " concurrent approvals plus " + rate + " arrivals/s for " + maxWaitForOpenSeconds
                + " s, " + openWindowSeconds + " s more with the breaker open, then the PG recovers and 1 arrival/s for "
                + trickleSeconds + " s (002: breaker open 169 ms after the fault)";
    }

    @Override
    public List<Target> targets(Measurements r) {
        Double p99 = r.phases().stream().filter(p -> p.name().equals("arrivals-breaker-open")).findFirst()
                .map(p -> p.latency().p99()).orElse(null);
        Double open = r.detect().breakerOpenAfter();
        Double refusal = r.detect().firstRefusalAfter();
        return List.of(
                new Target("breaker open after the fault", "<= 0.15 s at >= 100/s (002: 169 ms)", Stats.s(open),
                        rate >= 100 ? atMost(open, 0.15) : null),
                new Target("first fast refusal (503 PG_UNAVAILABLE) after the fault", "<= 1 s", Stats.s(refusal),
                        atMost(refusal, 1.0)),
                new Target("p99 while open", "<= 10 ms", Stats.ms(p99), atMost(p99, 10)),
                new Target("every UNKNOWN settled after the PG recovers", "<= 30 s", settledText(r),
                        settledWithin(r, 30)));
    }
}

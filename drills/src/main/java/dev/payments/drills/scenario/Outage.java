package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;

/**
 * A part of the stack taken away under an arrival-rate load and given back: PostgreSQL or the Kafka broker stopped
 * ({@link DbOutage}, {@link KafkaOutage}), or a service killed with SIGKILL mid-flight ({@link Crash}). The load runs
 * on throughout. A subclass says what breaks and how; its constructor may change the defaults below.
 */
abstract class Outage extends BaseScenario {

    @Option(names = "--rate", description = "Approvals per second, throughout.")
    double rate = 10;
    @Option(names = "--before", description = "Seconds of load before the outage.")
    int beforeSeconds = 10;
    @Option(names = "--after", description = "Seconds of load after the component is back.")
    int afterSeconds = 30;
    @Option(names = "--pg-latency-ms", description = "PG approval latency throughout (0: none).")
    int pgLatencyMs = 300;

    /** The local-stack component taken away ({@code postgres}, {@code kafka}, a service). */
    abstract String component();

    /** SIGKILL and an immediate restart, instead of a clean stop and a start {@link #outageSeconds()} later. */
    abstract boolean kill();

    abstract int outageSeconds();

    /** How the component is taken away, for the report ("stopped"); a kill says "killed" instead. */
    String takenAway() {
        return "stopped";
    }

    /** Stops or kills the component; returns when it is gone. */
    void takeAway(Drill drill) {
        drill.control(component(), kill() ? "kill" : "stop");
    }

    /** Starts it again; returns once it is healthy. */
    void giveBack(Drill drill) {
        drill.control(component(), "start");
    }

    @Override
    public String description() {
        return component() + " " + (kill() ? "killed (kill -9)" : takenAway()) + " after "
                + beforeSeconds + " s of " + rate + " approvals/s (PG at " + pgLatencyMs + " ms), "
                + (kill() ? "restarted at once" : "given back " + outageSeconds() + " s later")
                + ", load for " + afterSeconds + " s more";
    }

    @Override
    public int ordersNeeded() {
        return (int) Math.ceil(rate * (beforeSeconds + outageSeconds() + afterSeconds + 120)) + 10;
    }

    @Override
    public void run(Drill drill) {
        if (pgLatencyMs > 0) {
            drill.pgFaults(Drill.pgLatency(pgLatencyMs));
        }
        drill.phase("before");
        Thread load = drill.arrivals(rate);
        drill.sleep(Duration.ofSeconds(beforeSeconds));
        drill.phase(component() + " " + (kill() ? "kill" : takenAway()));
        drill.faultInjected();
        takeAway(drill);
        if (!kill()) {
            drill.sleep(Duration.ofSeconds(outageSeconds()));
        }
        giveBack(drill);
        drill.recoveredThenStop(load, Duration.ofSeconds(afterSeconds));
    }

    @Override
    public List<Target> targets(Measurements r) {
        Double caughtUp = r.recover().consumersCaughtUpAfter();
        return List.of(
                new Target("every payment settled after " + component() + " is back", "<= 30 s", settledText(r),
                        settledWithin(r, 30)),
                new Target("consumers caught up after " + component() + " is back", "<= 30 s", Stats.s(caughtUp),
                        caughtUp == null ? Boolean.FALSE : caughtUp <= 30));
    }
}

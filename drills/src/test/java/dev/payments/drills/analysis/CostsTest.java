package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;
import dev.payments.drills.observe.ResourceSampler.Counters;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.payments.drills.testing.DrillTestData.CLOCK;
import static dev.payments.drills.testing.DrillTestData.attempt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CostsTest {

    /** 20 s of a closed loop answering 10 approvals a second; payment-service burns 50 ms of CPU a second. */
    private static List<Attempt> steadyLoop() {
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            double sent = i * 0.1;
            attempts.add(attempt("C=10", sent, sent + 0.1, i % 10 == 9 ? "declined" : "approved"));
        }
        return attempts;
    }

    private static List<Counters> counters(double payment, double postgres, double load, double commits) {
        List<Counters> samples = new ArrayList<>();
        for (int t = 0; t <= 22; t++) {
            samples.add(new Counters(t, Map.of("cpu/payment-service", payment * t,
                    "cpu/payment-service/Tomcat request threads", payment * 0.6 * t, "cpu/postgres", postgres * t,
                    "cpu/launcher", load * t, "cpu/launcher/load generator", load * t, "cpu/machine", 1.5 * t,
                    "db/payments/commits", commits * t)));
        }
        return samples;
    }

    @Test
    void dividesTheSteadyPartsSpendingByItsApprovals() {
        List<Attempt> attempts = steadyLoop();
        List<DrillResult.Phase> phases = DrillAnalysis.phases(attempts, CLOCK);

        Costs.Cost cost = Costs.of(phases, attempts, counters(0.05, 0.02, 0.01, 18), CLOCK, null).get(0);

        // 9 approved per second (every tenth declined): 50 ms / 9 = 5.56 ms
        assertThat(cost.phase()).isEqualTo("C=10");
        assertThat(cost.from()).isEqualTo(4.0);       // the first fifth of the 20 s phase is warm-up
        assertThat(cost.to()).isEqualTo(18.0);        // the last tenth the drain
        assertThat(cost.approvedPerSecond()).isEqualTo(9.0);
        assertThat(cost.cpuMs()).containsEntry("payment-service", 5.56).containsEntry("postgres", 2.22)
                .containsEntry("launcher", 1.11);
        assertThat(cost.cpuMs().keySet()).containsExactly("payment-service", "postgres", "launcher");
        assertThat(cost.threadGroupsMs().get("payment-service")).containsEntry("Tomcat request threads", 3.33);
        assertThat(cost.totalMs()).isEqualTo(8.89);
        assertThat(cost.systemMs()).isEqualTo(7.78);  // without the load generator's threads
        assertThat(cost.cores()).isEqualTo(0.08);
        assertThat(cost.machineCores()).isEqualTo(1.5);
        assertThat(cost.perApproval()).containsEntry("db/payments/commits", 2.0);
    }

    @Test
    void aPhaseTooShortOrTooQuietHasNoFigure() {
        List<Attempt> burst = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            burst.add(attempt("burst-50", 1, 6, "approved"));   // all answered at once: no steady part
        }
        List<DrillResult.Phase> phases = DrillAnalysis.phases(burst, CLOCK);

        assertThat(Costs.of(phases, burst, counters(0.05, 0.02, 0.01, 18), CLOCK, null)).isEmpty();
    }

    /**
     * The step's figure leaves out the consumers' work after the load; this one runs on until they caught up (here 1 s
     * after the last answer, still spending), over every approval from the step's steady part on.
     */
    @Test
    void theFigureThroughTheConsumersCatchUpHoldsTheSpendingAfterTheLoad() {
        List<Attempt> attempts = new ArrayList<>(steadyLoop());
        attempts.addAll(0, warmUp());
        List<DrillResult.Phase> phases = DrillAnalysis.phases(attempts, CLOCK);

        List<Costs.Cost> costs = Costs.of(phases, attempts, counters(0.05, 0.02, 0.01, 18), CLOCK, 21.0);

        Costs.Cost through = costs.get(costs.size() - 1);
        assertThat(through.phase()).isEqualTo(Costs.THROUGH_CATCH_UP);
        assertThat(through.from()).isEqualTo(4.0);    // the first step after the warm-up, its steady part
        assertThat(through.to()).isEqualTo(21.0);
        assertThat(through.approvals()).isEqualTo(144);
        // 0.05 s a second over 17 s for 144 approvals, against 5.56 ms in the step alone
        assertThat(through.cpuMs().get("payment-service")).isCloseTo(5.90, within(0.01));
    }

    @Test
    void noFigureThroughTheCatchUpWhenTheConsumersDidNotCatchUp() {
        List<Attempt> attempts = steadyLoop();
        List<DrillResult.Phase> phases = DrillAnalysis.phases(attempts, CLOCK);

        assertThat(Costs.of(phases, attempts, counters(0.05, 0.02, 0.01, 18), CLOCK, null))
                .extracting(Costs.Cost::phase).containsExactly("C=10");
    }

    /** A warm-up phase, first in the drill, answered within the step's first fifth. */
    private static List<Attempt> warmUp() {
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            attempts.add(attempt("warm-up", 0, 0.05, "approved"));
        }
        return attempts;
    }

    @Test
    void interpolatesBetweenSamplesAndIgnoresGapsInAKey() {
        List<Counters> samples = List.of(new Counters(0, Map.of("cpu/x", 0.0)), new Counters(1, Map.of()),
                new Counters(2, Map.of("cpu/x", 2.0)));

        assertThat(Costs.at(samples, "cpu/x", 0.5)).isEqualTo(0.5);
        assertThat(Costs.delta(samples, "cpu/x", 0.5, 1.5)).isEqualTo(1.0);
        assertThat(Costs.at(samples, "cpu/x", 5)).isNull();   // no sample near enough after the end
    }
}

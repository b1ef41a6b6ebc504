package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;
import dev.payments.drills.observe.MetricsSampler.Transition;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline.Mark;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.payments.drills.testing.DrillTestData.CLOCK;
import static dev.payments.drills.testing.DrillTestData.attempt;
import static dev.payments.drills.testing.DrillTestData.order;
import static dev.payments.drills.testing.DrillTestData.paidAudit;
import static dev.payments.drills.testing.DrillTestData.reconciliationLedger;
import static dev.payments.drills.testing.DrillTestData.states;
import static org.assertj.core.api.Assertions.assertThat;

class DrillAnalysisTest {

    @Test
    void eachPhaseHasItsCountsLatencyAndThroughputOverItsOwnSpan() {
        List<Attempt> attempts = List.of(
                attempt("burst-2", 10, 11, "approved"),
                attempt("burst-2", 10, 12, "approved"),
                attempt("burst-4", 20, 21, "approved"),
                attempt("burst-4", 20, 22, "approved"),
                attempt("burst-4", 20, 23, "pending"),
                attempt("burst-4", 20, 24, "approved"));

        List<DrillResult.Phase> phases = DrillAnalysis.phases(attempts, CLOCK);

        assertThat(phases).extracting(DrillResult.Phase::name).containsExactly("burst-2", "burst-4");
        DrillResult.Phase second = phases.get(1);
        assertThat(second.count()).isEqualTo(4);
        assertThat(second.start()).isEqualTo(20.0);
        assertThat(second.end()).isEqualTo(24.0);
        assertThat(second.throughputPerSecond()).as("4 answers in 4 s").isEqualTo(1.0);
        assertThat(second.approvedPerSecondTimes100()).as("3 approved in 4 s").isEqualTo(75);
        assertThat(second.outcomes()).containsExactly(Map.entry("approved", 3L), Map.entry("pending", 1L));
        assertThat(second.latency().p50()).isEqualTo(2000.0);
        assertThat(second.latency().max()).isEqualTo(4000.0);
    }

    @Test
    void detectionIsMeasuredFromTheFirstFaultMark() {
        List<Attempt> attempts = List.of(
                attempt("before", 1, 2, "pending"),
                attempt("after", 10, 10.5, "approved"),
                attempt("after", 10, 12.25, "pending"),
                attempt("after", 11, 13, "pg_unavailable"));
        List<Transition> transitions = List.of(new Transition(3, "CLOSED", "OPEN"),
                new Transition(5, "OPEN", "CLOSED"), new Transition(12.5, "CLOSED", "OPEN"));

        DrillResult.Detect detect = DrillAnalysis.detect(10.0, attempts, transitions, List.of(), CLOCK);

        assertThat(detect.faultAt()).isEqualTo(10.0);
        assertThat(detect.firstFailureAfter()).as("the pending answered at 12.25 s").isEqualTo(2.25);
        assertThat(detect.breakerOpenAfter()).as("the OPEN before the fault is not detection").isEqualTo(2.5);
        assertThat(detect.firstRefusalAfter()).isEqualTo(3.0);
        assertThat(detect.alertPendingAfter()).isNull();
    }

    @Test
    void withoutAFaultNothingIsDetected() {
        DrillResult.Detect detect = DrillAnalysis.detect(null, List.of(attempt("a", 0, 1, "pending")), List.of(),
                List.of(), CLOCK);

        assertThat(detect.firstFailureAfter()).isNull();
        assertThat(detect.rule()).isEqualTo(ApprovalAlertReplay.DESCRIPTION);
    }

    @Test
    void poolTimeoutsAreSummedOverARestartOfPaymentService() {
        List<Sample> samples = List.of(pool(0, 2.0, 3.0), pool(1, 9.0, 5.0), pool(2, null, null),
                pool(3, 1.0, 1.0), pool(4, 0.0, 2.0));

        DrillResult.Pool pool = DrillAnalysis.pool(samples);

        assertThat(pool.pendingMax()).isEqualTo(9.0);
        assertThat(pool.timeouts()).as("3 -> 5 (+2), restart, 1 (+1) -> 2 (+1)").isEqualTo(4.0);
    }

    @Test
    void recoveryTimesCountFromTheRecoveredMark() {
        var observed = observations(List.of(new Mark(5, "fault injected"), new Mark(30, "recovered"),
                new Mark(40, "recovered")), new Observations.Recovery(7, 42.5, 50.0), paidAudit(2));

        DrillResult.Recover recover = DrillAnalysis.measure(observed).recover();

        assertThat(recover.recoveredAt()).isEqualTo(30.0);
        assertThat(recover.unsettledAtRecovery()).isEqualTo(7);
        assertThat(recover.allSettledAfter()).isEqualTo(12.5);
        assertThat(recover.consumersCaughtUpAfter()).isEqualTo(20.0);
        assertThat(recover.settleDeadlineSeconds()).isEqualTo(120);
    }

    @Test
    void answersAreCountedInTheSecondTheyArrived() {
        List<DrillResult.Second> seconds = DrillAnalysis.seconds(List.of(attempt("a", 0, 1.2, "approved"),
                attempt("a", 0, 1.9, "pending"), attempt("a", 1, 3.1, "approved")), CLOCK);

        assertThat(seconds).extracting(DrillResult.Second::t).containsExactly(1, 3);
        assertThat(seconds.get(0).outcomes()).containsEntry("approved", 1L).containsEntry("pending", 1L);
        assertThat(seconds.get(0).max()).isEqualTo(1900.0);
    }

    @Test
    void aHoldingLedgerPassesEveryCheck() {
        List<DrillResult.Check> checks = DrillAnalysis.checks(paidAudit(3), Map.of());

        assertThat(checks).extracting(DrillResult.Check::name).containsExactly("no approval lost",
                "no charge doubled", "ledger identity holds (drill's audit)",
                "order-service agrees with payment-service", "ledger identity holds (reconciliation-service)",
                "no event dead-lettered");
        assertThat(checks).allMatch(DrillResult.Check::passed);
    }

    @Test
    void aLostApprovalOrADisagreeingReconciliationFailsTheDrill() {
        var audit = LedgerAudit.of(states(order("told-failed", "FAILED", "FAILED", 1, 0),
                        order("behind", "PAYMENT_PENDING", "APPROVED", 1, 0)), List.of(),
                reconciliationLedger(false, "2 PG approvals = 1 PAID + 1 unaccounted"), "");

        var failed = DrillAnalysis.checks(audit, null).stream().filter(c -> !c.passed()).toList();

        assertThat(failed).extracting(DrillResult.Check::name).containsExactly("no approval lost",
                "ledger identity holds (drill's audit)", "order-service agrees with payment-service",
                "ledger identity holds (reconciliation-service)");
        assertThat(failed.get(0).detail()).contains("[told-failed]");
        assertThat(failed.get(3).detail()).isEqualTo("2 PG approvals = 1 PAID + 1 unaccounted");
    }

    @Test
    void withoutReconciliationsLedgerOnlyTheDrillsOwnChecksCount() {
        var audit = LedgerAudit.of(states(order("paid", "PAID", "APPROVED", 1, 0)), List.of(), null, "unavailable");

        assertThat(DrillAnalysis.checks(audit, null)).hasSize(4).allMatch(DrillResult.Check::passed);
    }

    @Test
    void anEventOnADeadLetterTopicFailsTheDrill() {
        var checks = DrillAnalysis.checks(paidAudit(1), Map.of("payment.events.order-service.dlt", 2L));

        assertThat(checks).filteredOn(c -> !c.passed()).singleElement().satisfies(check -> {
            assertThat(check.name()).isEqualTo("no event dead-lettered");
            assertThat(check.detail()).isEqualTo("2 records reached a dead-letter topic "
                    + "{payment.events.order-service.dlt=2}");
        });
    }

    private static Sample pool(double t, Double pending, Double timeouts) {
        boolean up = pending != null;
        return new Sample(t, up, pending, up ? 1.0 : null, timeouts, null, null, null, null, null, Map.of(), null);
    }

    private static Observations observations(List<Mark> marks, Observations.Recovery recovery, LedgerAudit audit) {
        return new Observations(CLOCK, 60, List.of(attempt("a", 1, 2, "approved")), 0, List.of(), List.of(), marks,
                audit, recovery, Duration.ofSeconds(120), Map.of(), List.of());
    }
}

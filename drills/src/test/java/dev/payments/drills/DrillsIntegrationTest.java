package dev.payments.drills;

import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.report.HtmlReport;
import dev.payments.drills.scenario.BaselineStructure;
import dev.payments.drills.scenario.DrillRunner;
import dev.payments.drills.scenario.Scenario;
import dev.payments.drills.scenario.Scenarios;
import dev.payments.drills.stack.OwnStack;
import dev.payments.localstack.LocalStackOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Small, fast pg-slow and pg-silent on one stack (every service in its own JVM, random ports): whatever the PG does,
 * no approval is lost, none is doubled and the ledger identity holds. The full drills are {@code drills/run.sh}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrillsIntegrationTest {

    @TempDir
    static Path dataDir;
    private static OwnStack stack;

    @BeforeAll
    static void startStack() {
        // Patience, not an assertion: on a machine shared with other builds the contexts take minutes to start.
        stack = OwnStack.start(Map.of(), Map.of(), dataDir,
                LocalStackOptions.DEFAULT_JVM_OPTIONS, Map.of(), Duration.ofMinutes(7), true);
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void slowPgApprovesEveryPaymentAndTheLedgerHolds() throws Exception {
        // 1 s late, 10 then 20 concurrent, every approval reaching the PG. Ten warm-up approvals before, on member
        // accounts of their own, PAID like the others.
        DrillResult result = run(Scenarios.parse("pg-slow", "--warmup=10", "--latency-ms=1000", "--first=10",
                "--second=20", "--pause=1", "--pool=10"), Duration.ofSeconds(30));

        assertNothingLost(result);
        assertThat(result.measured().audit().books().paidOrders()).isEqualTo(40);
        assertThat(result.measured().phases()).extracting(p -> p.name()).contains("warm-up", "burst-10", "burst-20");
        assertThat(result.measured().outcomes()).containsOnlyKeys("approved");
        assertThat(result.measured().pool().timeouts()).isZero();
        assertThat(HtmlReport.render(result)).contains("<svg").doesNotContain("<script", "src=", "<link");
    }

    @Test
    @Order(2)
    void silentPgOpensTheBreakerAndLosesNothing() throws Exception {
        // Nothing was booked at the PG, so its UNKNOWNs stay UNKNOWN (NOT_FOUND is not proof): a short settle wait.
        // No warm-up: its 200 approvals against the healthy PG are for measuring a warm service, not for this check.
        DrillResult result = run(Scenarios.parse("pg-silent", "--warmup=0", "--concurrent=10", "--rate=10",
                "--open-window=3", "--max-wait-open=40", "--trickle=0"), Duration.ofSeconds(5));

        assertNothingLost(result);
        assertThat(result.measured().breakerTransitions()).anyMatch(t -> "OPEN".equals(t.to()));
        assertThat(result.measured().outcomes()).containsKey("pg_unavailable");
        assertThat(result.measured().audit().books().pgApprovals()).isZero();
    }

    /**
     * The drill's plumbing for {@code pg-slow --structures}: 000's after-commit structure in its own JVM on this
     * stack, on a pool of two, eight approvals the PG answers at once per burst. The audit reads the baseline's books
     * beside the PG's and finds 000's shape in small: approvals saved and then the second connection's deadlock,
     * pool timeouts, the rest cancelled at the PG - and every PG approval is PAID or cancelled.
     */
    @Test
    @Order(3)
    void theAfterCommitBaselineLosesApprovalsToItsOwnPoolAndCancelsThem() throws Exception {
        Scenario scenario = Scenarios.parse("pg-slow", "--warmup=0", "--latency-ms=1000", "--first=8", "--second=8",
                "--pause=1");
        DrillRunner.Labelled run = DrillRunner.runBaseline(scenario, stack,
                new DrillRunner.Options(stack, Duration.ofSeconds(5), null, "DrillsIntegrationTest baseline", null,
                        List.of(), Map.of(), Duration.ofMinutes(7)),
                new DrillRunner.JvmVariant("laptop JVM", LocalStackOptions.DEFAULT_JVM_OPTIONS),
                new BaselineStructure(BaselineStructure.AFTER_COMMIT, "after-commit", List.of(
                        "--spring.datasource.hikari.maximum-pool-size=2",
                        "--spring.datasource.hikari.connection-timeout=2000")));

        var books = run.result().measured().audit().books();
        assertThat(run.baseline()).isTrue();
        // Not all 16 need reach the PG: on a loaded machine even TX-1 can wait out the 2 s on a pool of two.
        assertThat(books.pgApprovals()).as("approvals at the PG").isPositive();
        assertThat(books.cancellations()).as("compensating cancels").isPositive();
        assertThat(books.paidOrders() + books.cancellations()).as("every PG approval PAID or cancelled")
                .isEqualTo(books.pgApprovals());
        assertThat(books.holds()).as(books.identity()).isTrue();
        assertThat(run.result().measured().pool().timeouts()).as("pool timeouts (the baseline's own scrape)")
                .isPositive();
    }

    private static DrillResult run(Scenario scenario, Duration settle) throws Exception {
        return DrillRunner.run(scenario, new DrillRunner.Options(stack, settle, null,
                "DrillsIntegrationTest " + scenario.name(), null));
    }

    private static void assertNothingLost(DrillResult result) {
        assertThat(result.measured().audit().books().lost()).as("approvals lost").isZero();
        assertThat(result.measured().audit().books().doubled()).as("charges doubled").isZero();
        assertThat(result.measured().audit().books().holds()).as(result.measured().audit().books().identity()).isTrue();
        assertThat(result.passed()).as(result.checks().toString()).isTrue();
    }
}

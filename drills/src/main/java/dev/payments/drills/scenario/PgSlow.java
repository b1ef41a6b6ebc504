package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 000: the PG answers approvals 5 s late; DB pool 10; 50 concurrent approvals, a pause, then 100 concurrent, against
 * the service as shipped (its approval bulkhead takes 150 of the 200 web threads: docs/resilience.md).
 */
@Command(name = "pg-slow", description = "000: PG 5 s late, pool 10, 50 then 100 concurrent.")
final class PgSlow extends BaseScenario {

    @Option(names = "--latency-ms", description = "PG approval latency.")
    int latencyMs = 5000;
    @Option(names = "--first", description = "Concurrent approvals of the first burst.")
    int first = 50;
    @Option(names = "--second", description = "Concurrent approvals of the second burst.")
    int second = 100;
    @Option(names = "--pause", description = "Seconds between the bursts (000: 90).")
    int pauseSeconds = 30;
    @Option(names = "--pool", description = "payment-service's DB pool.")
    int pool = 10;
    @Option(names = "--structures", split = ",",
            description = "ours, or all: ours, then field report 000's two broken structures on the same stack and "
                    + "load (in-tx: the PG call inside one @Transactional; after-commit: the PG call outside, an "
                    + "AFTER_COMMIT listener saving notifications in REQUIRES_NEW), compared side by side. "
                    + "in-tx / after-commit pick one of them.")
    List<String> structures = List.of("ours");
    @Mixin
    WarmUp warmUp = new WarmUp();

    @Override
    protected void configure(Settings settings) {
        settings.set(Component.PAYMENT_SERVICE, "spring.datasource.hikari.maximum-pool-size", pool);
    }

    @Override
    public List<BaselineStructure> baselines() {
        List<String> poolSetting = List.of("--spring.datasource.hikari.maximum-pool-size=" + pool);
        List<BaselineStructure> baselines = new ArrayList<>();
        for (String s : structures) {
            switch (s) {
                case "ours" -> {
                }
                case "all" -> {
                    baselines.add(inTx(poolSetting));
                    baselines.add(afterCommit(poolSetting));
                }
                case BaselineStructure.IN_TX -> baselines.add(inTx(poolSetting));
                case BaselineStructure.AFTER_COMMIT -> baselines.add(afterCommit(poolSetting));
                default -> throw new IllegalArgumentException("--structures: ours, all, " + BaselineStructure.IN_TX
                        + " or " + BaselineStructure.AFTER_COMMIT + ", not " + s);
            }
        }
        return baselines.stream().distinct().toList();
    }

    private static BaselineStructure inTx(List<String> pool) {
        return new BaselineStructure(BaselineStructure.IN_TX, "000 (a) PG call inside @Transactional", pool);
    }

    private static BaselineStructure afterCommit(List<String> pool) {
        return new BaselineStructure(BaselineStructure.AFTER_COMMIT, "000 (b) AFTER_COMMIT + REQUIRES_NEW", pool);
    }

    private String warmedUp() {
        return warmUp.approvals == 0 ? "" : " (" + warmUp.approvals + " of them the warm-up)";
    }

    @Override
    public int warmupApprovals() {
        return warmUp.approvals;
    }

    @Override
    public String description() {
        return (warmUp.approvals == 0 ? "" : warmUp.approvals + " warm-up approvals against the healthy PG, then ")
                + "PG approvals delayed " + latencyMs + " ms, DB pool as set, " + first + " concurrent approvals, "
                + pauseSeconds + " s pause, then " + second + " concurrent (000: 5 s, pool 10, 50 then 100 after 90 s)";
    }

    @Override
    public int ordersNeeded() {
        return first + second;
    }

    @Override
    public void run(Drill drill) {
        drill.fault(Drill.pgLatency(latencyMs));
        drill.burst(first, "burst-" + first);
        drill.phase("pause");
        drill.sleep(Duration.ofSeconds(pauseSeconds));
        drill.burst(second, "burst-" + second);
        drill.clearFaults();
        if (pauseSeconds < 90) {
            drill.note("pause between the bursts " + pauseSeconds + " s instead of 000's 90 s (the breaker and pool "
                    + "have no memory of the first burst after a few seconds; the pause only costs time)");
        }
    }

    @Override
    public List<Target> targets(Measurements r) {
        // The warm-up's approvals are in the books too: every one of them must be PAID as well.
        long paid = r.audit().books().paidOrders();
        int total = warmUp.approvals + first + second;
        Double p99 = r.phases().stream().filter(p -> p.name().equals("burst-" + second)).findFirst()
                .map(p -> p.latency().p99()).orElse(null);
        double goal = latencyMs + 150;
        return List.of(
                new Target("approved, no compensation", total + " of " + total + warmedUp() + ", 0 cancels",
                        paid + " of " + total + ", " + r.audit().books().cancellations() + " cancels",
                        paid == total && r.audit().books().cancellations() == 0),
                new Target("burst-" + second + " p99", "<= " + (long) goal + " ms (000: ~6 s)",
                        Stats.ms(p99), atMost(p99, goal)),
                new Target("DB pool timeouts", "0 (000: ~120/min)", String.valueOf(r.pool().timeouts()),
                        r.pool().timeouts() == null ? null : r.pool().timeouts() == 0));
    }
}

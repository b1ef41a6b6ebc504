package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** 001: the simulator's "40 % failure" profile: requests succeed 60 %, asynchronous processing 70 %, 100-500 ms. */
@Command(name = "pg-flaky", description = "001: request success 60 %%, async success 70 %%.")
final class PgFlaky extends BaseScenario {

    @Option(names = "--rate", description = "Approvals per second.")
    double rate = 10;
    @Option(names = "--seconds", description = "How long the load runs.")
    int seconds = 60;

    @Override
    public String description() {
        return "PG simulator profile 001 (request success 60 %, async success 70 %, 100-500 ms, result by callback), "
                + rate + " approvals/s for " + seconds + " s (001: success 60 % -> 93.6 % with 3 retries)";
    }

    @Override
    public int ordersNeeded() {
        return (int) Math.ceil(rate * seconds) + 5;
    }

    @Override
    public void run(Drill drill) {
        drill.fault("{\"profile\":\"001\"}");
        drill.phase("arrivals");
        drill.load().openLoop(drill.orders()::next, rate, Duration.ofSeconds(seconds), 200, "arrivals");
        drill.clearFaults();
    }

    @Override
    public List<Target> targets(Measurements r) {
        var a = r.audit().books();
        long sent = r.ordersSent();
        double paidShare = sent == 0 ? 0 : 100.0 * a.paidOrders() / sent;
        // 001: 93.6 % of requests reach the PG with 3 attempts; 70 % of those are approved asynchronously.
        double expected = (1 - Math.pow(0.4, 3)) * 0.7 * 100;
        return List.of(new Target("orders PAID", String.format(Locale.ROOT, "~%.1f %% (0.936 x 0.7)", expected),
                String.format(Locale.ROOT, "%.1f %% (%d of %d)", paidShare, a.paidOrders(), sent), null));
    }
}

package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.localstack.http.Http;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The renewal run of field report 000's open problem. N subscriptions due, the PG's billing charges at a
 * fixed latency with the seeds' faults mixed in (5xx, declines, lost answers), two runs started at once, payment-service
 * killed with SIGKILL mid-run and restarted, then runs until nothing is due or in flight; live approvals throughout.
 * Reports the time against the sequential N x latency, PG charges per subscription, the renewals' ledger identity and
 * the live approvals' latency before and during the runs.
 */
@Command(name = "renewals", description = "000: subscriptions renewed by two runs at once, payment-service killed mid-run.")
final class Renewals extends BaseScenario {

    @Option(names = "--subscriptions", description = "Subscriptions due.")
    int subscriptions = 10_000;
    @Option(names = "--latency-ms", description = "PG latency of every charge and approval.")
    int latencyMs = 300;
    @Option(names = "--workers", description = "Renewal workers per run and the pg-renewal bulkhead.")
    int workers = 16;
    @Option(names = "--error-rate", description = "Injected 5xx per PG call (nothing booked).")
    double errorRate = 0.02;
    @Option(names = "--decline-rate", description = "Card declines (booked ABORTED).")
    double declineRate = 0.03;
    @Option(names = "--drop-rate", description = "Approvals whose answer is lost (TCP reset after booking).")
    double dropRate = 0.01;
    @Option(names = "--rate", description = "Live approvals per second, throughout.")
    double rate = 2;
    @Option(names = "--baseline", description = "Seconds of live approvals before the runs start.")
    int baselineSeconds = 20;
    @Option(names = "--kill-after", description = "Seconds after the runs start to kill payment-service (0: no kill).")
    int killAfterSeconds = 60;
    @Option(names = "--finish-timeout", description = "Seconds for every period to be charged or settled.")
    int finishTimeoutSeconds = 1_500;

    @Override
    public String description() {
        return subscriptions + " subscriptions due; billing charges at " + latencyMs + " ms with " + errorRate
                + " 5xx, " + declineRate + " declines, " + dropRate + " lost answers; two runs at once, "
                + (killAfterSeconds > 0 ? "payment-service killed " + killAfterSeconds + " s in, " : "")
                + "live approvals at " + rate + "/s throughout";
    }

    @Override
    public int ordersNeeded() {
        return (int) Math.ceil(rate * (baselineSeconds + estimatedSeconds() * 2 + 180)) + 10;
    }

    private double estimatedSeconds() {
        return subscriptions * latencyMs / 1000.0 / workers;
    }

    @Override
    protected void configure(Settings settings) {
        settings.set(Component.PAYMENT_SERVICE, "payment.renewal.schedule", "-")
                .set(Component.PAYMENT_SERVICE, "payment.renewal.workers", workers)
                .set(Component.PAYMENT_SERVICE, "resilience4j.bulkhead.instances.pg-renewal.max-concurrent-calls", workers)
                // A charge that never reached the PG is due again in the next run of the drill, not in 10 min.
                .set(Component.PAYMENT_SERVICE, "payment.renewal.retry-nothing-charged", "0s");
    }

    @Override
    public void run(Drill drill) throws Exception {
        String payments = drill.target().endpoints().payment();
        String operator = drill.target().tokens().operator("operator-1");
        drill.phase("subscribing");
        subscribe(drill, payments);

        drill.pgFaults("{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":" + latencyMs + "},\"errorRate\":"
                + errorRate + ",\"errorStatus\":503,\"declineRate\":" + declineRate
                + ",\"declineCode\":\"REJECT_CARD_PAYMENT\",\"dropResponseRate\":" + dropRate
                + ",\"dropMode\":\"RESET\",\"seed\":18}");
        drill.phase("live approvals only");
        drill.load().openLoop(drill.orders()::next, rate, Duration.ofSeconds(baselineSeconds), 300,
                "live, before the runs");
        drill.phase("renewal runs");
        Thread live = drill.arrivals(drill.load(), rate, "live, during the runs");
        double started = drill.mark("runs start");
        ExecutorService two = Executors.newFixedThreadPool(2);
        List<Future<Http.Response>> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            runs.add(two.submit(() -> drill.http().post(payments + "/api/renewals/runs", Http.bearer(operator), null,
                    Duration.ofSeconds(30))));
        }
        for (Future<Http.Response> run : runs) {
            if (run.get().status() != 202) {
                throw new IllegalStateException("a renewal run was refused: " + run.get());
            }
        }
        two.shutdown();
        if (killAfterSeconds > 0) {
            drill.sleep(Duration.ofSeconds(killAfterSeconds));
            drill.phase("payment-service kill");
            drill.mark("payment-service kill");
            drill.faultInjected();
            drill.control("payment-service", "kill");
            drill.control("payment-service", "start");
            drill.recovered();
            drill.phase("renewal runs, resumed");
        }
        double finished = awaitEverySettled(drill, payments, started);
        drill.mark("renewals done");
        drill.orders().exhaust();
        Drill.join(live);
        measured = RenewalBooks.read(drill, subscriptions, latencyMs, finished - started);
        drill.extra("renewals", measured);
    }

    private void subscribe(Drill drill, String payments) throws Exception {
        // One sign-in at a time: auth-server's in-memory authorization store failed concurrent token requests with a
        // ConcurrentModificationException (500) under load; the tokens are cached and reused from here on.
        for (int m = 0; m < Math.min(30, subscriptions); m++) {
            drill.target().tokens().member("member-renewals-" + m);
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        AtomicInteger done = new AtomicInteger();
        List<Future<?>> created = new ArrayList<>();
        for (int i = 0; i < subscriptions; i++) {
            String member = "member-renewals-" + (i % 30);
            created.add(pool.submit(() -> {
                Http.Response key = drill.http().postPg(drill.target().endpoints().pg() + "/v1/billing/authorizations/issue",
                        "{\"customerKey\":\"" + member + "\",\"authKey\":\"drill\"}", Duration.ofSeconds(30));
                if (!key.ok()) {
                    throw new IllegalStateException("the PG issued no billing key: " + key);
                }
                Http.Response subscription = drill.http().post(payments + "/api/subscriptions",
                        Http.bearer(drill.target().tokens().member(member)),
                        "{\"plan\":\"Monthly\",\"amount\":9900,\"currency\":\"KRW\",\"billingKey\":\""
                                + key.json().path("billingKey").asText() + "\"}", Duration.ofSeconds(30));
                if (subscription.status() != 201) {
                    throw new IllegalStateException("subscription refused: " + subscription);
                }
                int n = done.incrementAndGet();
                if (n % 500 == 0) {
                    drill.detail(n + "/" + subscriptions + " subscribed");
                }
                return null;
            }));
        }
        for (Future<?> f : created) {
            f.get();
        }
        pool.shutdown();
    }

    /**
     * Starts a run whenever none is active (a killed run stays without an end) until no period is due or in flight,
     * i.e. until reconciliation has settled what the kill and the lost answers left unknown.
     */
    private double awaitEverySettled(Drill drill, String payments, double startedAt) throws Exception {
        String operator = drill.target().tokens().operator("operator-1");
        long deadline = System.nanoTime() + Duration.ofSeconds(finishTimeoutSeconds).toNanos();
        double lastStart = drill.clock().seconds();
        while (System.nanoTime() < deadline) {
            Map<String, Long> state = RenewalBooks.counts(drill, """
                    SELECT 'due' AS k, count(*) AS n FROM renewal_charges WHERE state = 'DUE' AND next_attempt_at <= now()
                    UNION ALL SELECT 'charging', count(*) FROM renewal_charges WHERE state = 'CHARGING'
                    UNION ALL SELECT 'active', count(*) FROM renewal_runs WHERE ended_at IS NULL
                          AND started_at > now() - make_interval(secs => %d)
                    """.formatted((int) (drill.clock().seconds() - lastStart) + 5));
            drill.detail("due " + state.get("due") + ", in flight " + state.get("charging"));
            if (state.get("due") == 0 && state.get("charging") == 0 && state.get("active") == 0) {
                return drill.clock().seconds();
            }
            if (state.get("active") == 0) {
                Http.Response run = drill.http().post(payments + "/api/renewals/runs", Http.bearer(operator), null,
                        Duration.ofSeconds(30));
                if (run.status() == 202) {
                    lastStart = drill.clock().seconds();
                }
            }
            drill.sleep(Duration.ofSeconds(5));
        }
        drill.note("renewals: not every period was charged or settled within " + finishTimeoutSeconds + " s");
        return drill.clock().seconds();
    }

    private Map<String, Object> measured = Map.of();

    @Override
    public List<Target> targets(Measurements measured) {
        Object wrong = this.measured.get("periods whose PG approvals are not exactly 1 if CHARGED, else 0");
        Object speedUp = this.measured.get("speed-up vs sequential");
        Object identity = this.measured.get("ledger identity (renewals)");
        return List.of(
                new Target("PG charges per charged period", "exactly 1 (0 for the others)",
                        wrong == null ? "-" : wrong + " periods off", wrong == null ? null : ((Long) wrong) == 0),
                new Target("time vs sequential N x latency", "well below", speedUp == null ? "-" : speedUp + "x faster",
                        speedUp == null ? null : ((Double) speedUp) > 2),
                new Target("renewals' ledger identity", "holds", String.valueOf(identity),
                        identity == null ? null : identity.toString().endsWith("holds")));
    }
}

package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.Stats;
import dev.payments.localstack.http.Http;
import dev.payments.localstack.Component;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
@Command(name = "renewals", description = "Subscriptions renewed by two runs at once, payment-service killed mid-run.")
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
    public String fieldReport() {
        return "000";
    }

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
        String payments = drill.target().paymentUrl();
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
        Thread live = drill.background("live", () -> drill.load().openLoop(drill.orders()::next, rate,
                Duration.ofDays(1), 300, "live, during the runs"));
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
        drill.extra("renewals", results(drill, started, finished));
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
                Http.Response key = drill.http().postPg(drill.target().pgUrl() + "/v1/billing/authorizations/issue",
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
            Map<String, Long> state = counts(drill, """
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

    private Map<String, Object> results(Drill drill, double started, double finished) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        Map<String, Long> periods = counts(drill, "SELECT state AS k, count(*) AS n FROM renewal_charges GROUP BY state");
        long attempts = counts(drill, "SELECT 'n' AS k, count(*) AS n FROM renewal_attempts").get("n");
        double seconds = finished - started;
        double sequential = attempts * latencyMs / 1000.0;
        r.put("subscriptions", subscriptions);
        r.put("periods by state", periods);
        r.put("attempts", attempts);
        r.put("seconds from the runs' start to nothing due or in flight", Stats.round(seconds));
        r.put("sequential attempts x latency, seconds", Stats.round(sequential));
        r.put("speed-up vs sequential", Stats.round(sequential / seconds));

        // PG approvals per subscription, through the order id of every attempt we recorded.
        Map<String, String> subscriptionByOrder = new HashMap<>();
        Map<String, String> stateBySubscription = new HashMap<>();
        try (Connection db = connect(drill); Statement st = db.createStatement()) {
            try (ResultSet rs = st.executeQuery("""
                    SELECT p.order_id, a.subscription_id FROM renewal_attempts a JOIN payments p USING (payment_id)""")) {
                while (rs.next()) {
                    subscriptionByOrder.put(rs.getString(1), rs.getString(2));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT subscription_id, state FROM renewal_charges")) {
                while (rs.next()) {
                    stateBySubscription.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        Map<String, Long> approvals = new HashMap<>();
        long pgCancels = 0;
        String cursor = null;
        do {
            Http.Response page = drill.http().getPg(drill.target().pgUrl() + "/v1/transactions?limit=1000"
                    + (cursor == null ? "" : "&startingAfter=" + cursor), Duration.ofSeconds(30));
            for (var t : page.json().path("transactions")) {
                String subscription = subscriptionByOrder.get(t.path("orderId").asText());
                if (subscription == null) {
                    continue;
                }
                if ("APPROVE".equals(t.path("type").asText())) {
                    approvals.merge(subscription, 1L, Long::sum);
                } else {
                    pgCancels++;
                }
            }
            cursor = page.json().path("hasNext").asBoolean() ? page.json().path("nextCursor").asText() : null;
        } while (cursor != null);
        Map<String, Long> chargesPerSubscription = new TreeMap<>();
        long wrong = 0;
        for (Map.Entry<String, String> period : stateBySubscription.entrySet()) {
            long n = approvals.getOrDefault(period.getKey(), 0L);
            chargesPerSubscription.merge(period.getValue() + " x" + n, 1L, Long::sum);
            if (n != ("CHARGED".equals(period.getValue()) ? 1 : 0)) {
                wrong++;
            }
        }
        long pgApprovals = approvals.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> payments = counts(drill, """
                SELECT p.status AS k, count(*) AS n FROM renewal_attempts a JOIN payments p USING (payment_id)
                GROUP BY p.status""");
        r.put("PG charges per subscription (period state x PG approvals)", chargesPerSubscription);
        r.put("periods whose PG approvals are not exactly 1 if CHARGED, else 0", wrong);
        r.put("renewal payments by status", payments);
        long approved = payments.getOrDefault("APPROVED", 0L);
        long canceled = payments.getOrDefault("CANCELED", 0L);
        r.put("ledger identity (renewals)", "PG approvals " + pgApprovals + " = APPROVED " + approved
                + " + cancellations " + canceled + " (PG cancels " + pgCancels + ") -> "
                + (pgApprovals == approved + canceled && pgCancels == canceled ? "holds" : "DOES NOT HOLD"));
        List<Map<String, Object>> records = new ArrayList<>();
        try (Connection db = connect(drill); Statement st = db.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT trigger, outcome, started_at, ended_at, due, charged, declined, unknown, failed, remaining,
                       extract(epoch FROM ended_at - started_at) AS seconds
                FROM renewal_runs ORDER BY started_at""")) {
            while (rs.next()) {
                Map<String, Object> run = new LinkedHashMap<>();
                run.put("outcome", rs.getString("outcome"));
                run.put("seconds", rs.getObject("seconds") == null ? null : Stats.round(rs.getDouble("seconds")));
                for (String c : List.of("due", "charged", "declined", "unknown", "failed", "remaining")) {
                    run.put(c, rs.getLong(c));
                }
                records.add(run);
            }
        }
        r.put("runs", records);
        drill.note("renewals: " + seconds + " s against " + sequential + " s sequential; " + wrong
                + " periods with a wrong number of PG charges; " + r.get("ledger identity (renewals)"));
        this.measured = r;
        return r;
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

    private static Map<String, Long> counts(Drill drill, String sql) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection db = connect(drill); Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                counts.put(rs.getString("k"), rs.getLong("n"));
            }
        }
        return counts;
    }

    private static Connection connect(Drill drill) throws SQLException {
        String url = drill.target().postgresJdbcUrl().replaceFirst("/postgres(\\?|$)", "/payments$1");
        return DriverManager.getConnection(url, EmbeddedPostgresServer.USERNAME, EmbeddedPostgresServer.PASSWORD);
    }
}

package dev.payments.drills.scenario;

import dev.payments.drills.analysis.Stats;
import dev.payments.drills.observe.Books;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a {@link Renewals} run left in payment-service's database and in the PG's books. */
final class RenewalBooks {

    private RenewalBooks() {
    }

    /**
     * Periods by state, attempts, the time against the sequential attempts x latency, PG approvals per subscription
     * (through the order id of every attempt recorded) and the renewals' ledger identity.
     */
    static Map<String, Object> read(Drill drill, int subscriptions, int latencyMs, double seconds) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        Map<String, Long> periods = counts(drill, "SELECT state AS k, count(*) AS n FROM renewal_charges GROUP BY state");
        long attempts = counts(drill, "SELECT 'n' AS k, count(*) AS n FROM renewal_attempts").get("n");
        double sequential = attempts * latencyMs / 1000.0;
        r.put("subscriptions", subscriptions);
        r.put("periods by state", periods);
        r.put("attempts", attempts);
        r.put("seconds from the runs' start to nothing due or in flight", Stats.round(seconds));
        r.put("sequential attempts x latency, seconds", Stats.round(sequential));
        r.put("speed-up vs sequential", Stats.round(sequential / seconds));

        Map<String, String> subscriptionByOrder = new HashMap<>();
        Map<String, String> stateBySubscription = new HashMap<>();
        try (Connection db = drill.target().connect("payments"); Statement st = db.createStatement()) {
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
        long[] pgCancels = {0};
        new Books(drill.http(), drill.target()).eachPgTransaction(t -> {
            String subscription = subscriptionByOrder.get(t.path("orderId").asText());
            if (subscription != null && "APPROVE".equals(t.path("type").asText())) {
                approvals.merge(subscription, 1L, Long::sum);
            } else if (subscription != null) {
                pgCancels[0]++;
            }
        });
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
                + " + cancellations " + canceled + " (PG cancels " + pgCancels[0] + ") -> "
                + (pgApprovals == approved + canceled && pgCancels[0] == canceled ? "holds" : "DOES NOT HOLD"));
        List<Map<String, Object>> records = new ArrayList<>();
        try (Connection db = drill.target().connect("payments"); Statement st = db.createStatement(); ResultSet rs = st.executeQuery("""
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
        return r;
    }

    /** Rows of {@code k, n} as a map. */
    static Map<String, Long> counts(Drill drill, String sql) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection db = drill.target().connect("payments"); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                counts.put(rs.getString("k"), rs.getLong("n"));
            }
        }
        return counts;
    }
}

package dev.payments.payment.adapter.out.persistence;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code payment_unsettled{state}} and {@code payment_unsettled_oldest_age_seconds{state}}: how many payments nobody
 * has settled yet (money may have moved; for CANCEL_OWED: money the PG holds that we owe back) and how long the oldest
 * has waited. Refreshed on a timer, not per scrape, so
 * a scrape never takes a connection from the request pool.
 */
@Component
class UnsettledPaymentsMetrics {

    private static final Logger log = LoggerFactory.getLogger(UnsettledPaymentsMetrics.class);
    private static final String[] STATES = {"REQUESTED", "UNKNOWN", "CANCEL_OWED"};

    private final JdbcClient jdbc;
    private final Map<String, double[]> latest = new ConcurrentHashMap<>();

    UnsettledPaymentsMetrics(JdbcClient jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        for (String state : STATES) {
            double[] values = {0, 0};
            latest.put(state, values);
            Gauge.builder("payment.unsettled", values, v -> v[0]).tag("state", state)
                    .description("Payments in this state: money may have moved, nobody has settled them yet")
                    .register(meters);
            Gauge.builder("payment.unsettled.oldest.age", values, v -> v[1]).tag("state", state).baseUnit("seconds")
                    .description("Age of the oldest payment in this state").register(meters);
        }
    }

    @Scheduled(fixedDelayString = "${payment.metrics.unsettled-refresh:10s}")
    void refresh() {
        try {
            Map<String, double[]> fresh = new ConcurrentHashMap<>();
            jdbc.sql("""
                            SELECT status, count(*) AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(updated_at)), 0) AS age
                            FROM payments WHERE status IN ('REQUESTED', 'UNKNOWN', 'CANCEL_OWED') GROUP BY status
                            """)
                    .query(rs -> {
                        fresh.put(rs.getString("status"), new double[]{rs.getLong("n"), rs.getDouble("age")});
                    });
            for (String state : STATES) {
                double[] values = latest.get(state);
                double[] now = fresh.getOrDefault(state, new double[]{0, 0});
                values[0] = now[0];
                values[1] = now[1];
            }
        } catch (DataAccessException e) {
            log.warn("Could not refresh the unsettled-payment gauges", e);
        }
    }
}

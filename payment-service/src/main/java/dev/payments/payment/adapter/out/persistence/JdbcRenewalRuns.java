package dev.payments.payment.adapter.out.persistence;

import dev.payments.payment.application.renewal.RenewalRuns;
import dev.payments.payment.domain.renewal.RenewalRun;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcRenewalRuns implements RenewalRuns {

    private static final String COLUMNS = "run_id, trigger, triggered_by, started_at, ended_at, outcome, due, charged, "
            + "declined, unknown, failed, remaining";

    private static final RowMapper<RenewalRun> ROW = (rs, i) -> new RenewalRun(rs.getObject("run_id", UUID.class),
            RenewalRun.Trigger.valueOf(rs.getString("trigger")), rs.getString("triggered_by"),
            JdbcPayments.instant(rs.getTimestamp("started_at")), JdbcPayments.instant(rs.getTimestamp("ended_at")),
            RenewalRun.Outcome.valueOf(rs.getString("outcome")),
            new RenewalRun.Counts(rs.getLong("due"), rs.getLong("charged"), rs.getLong("declined"),
                    rs.getLong("unknown"), rs.getLong("failed"), rs.getLong("remaining")));

    private final JdbcClient jdbc;

    JdbcRenewalRuns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void insert(RenewalRun run) {
        jdbc.sql("INSERT INTO renewal_runs (" + COLUMNS + """
                        ) VALUES (:id, :trigger, :by, :startedAt, :endedAt, :outcome, :due, :charged, :declined,
                                  :unknown, :failed, :remaining)
                        """)
                .params(params(run)).update();
    }

    @Override
    public void update(RenewalRun run) {
        jdbc.sql("""
                        UPDATE renewal_runs SET ended_at = :endedAt, outcome = :outcome, due = :due, charged = :charged,
                               declined = :declined, unknown = :unknown, failed = :failed, remaining = :remaining
                        WHERE run_id = :id
                        """)
                .params(params(run)).update();
    }

    @Override
    public Optional<RenewalRun> findById(UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM renewal_runs WHERE run_id = :id").param("id", id)
                .query(ROW).optional();
    }

    @Override
    public List<RenewalRun> latest(int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM renewal_runs ORDER BY started_at DESC LIMIT :limit")
                .param("limit", limit).query(ROW).list();
    }

    @Override
    public long running() {
        return jdbc.sql("SELECT count(*) FROM renewal_runs WHERE outcome = 'RUNNING'").query(Long.class).single();
    }

    private static java.util.Map<String, Object> params(RenewalRun run) {
        java.util.Map<String, Object> params = new java.util.HashMap<>();
        params.put("id", run.id());
        params.put("trigger", run.trigger().name());
        params.put("by", run.triggeredBy());
        params.put("startedAt", JdbcPayments.timestamp(run.startedAt()));
        params.put("endedAt", JdbcPayments.timestamp(run.endedAt()));
        params.put("outcome", run.outcome().name());
        params.put("due", run.counts().due());
        params.put("charged", run.counts().charged());
        params.put("declined", run.counts().declined());
        params.put("unknown", run.counts().unknown());
        params.put("failed", run.counts().failed());
        params.put("remaining", run.counts().remaining());
        return params;
    }
}

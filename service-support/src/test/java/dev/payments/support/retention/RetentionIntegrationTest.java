package dev.payments.support.retention;

import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.ServiceDatabases;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.support.schedule.ClusterJobs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retention job on a real PostgreSQL: a row older than its rule goes, a younger one stays, a row the rule's
 * condition protects stays however old; a cycle deletes at most {@code batchSize x maxBatches} rows; a row another
 * transaction holds is skipped, not waited for; two replicas run one cycle between them.
 */
class RetentionIntegrationTest {

    private static final String DATABASE = "retention_it";
    private static final RetentionRule DELIVERED = new RetentionRule("messages", "retained_message", "made_at",
            "state <> 'PENDING'", Duration.ofHours(1));

    private DriverManagerDataSource dataSource;
    private JdbcTemplate jdbc;
    private SimpleMeterRegistry meters;

    @BeforeEach
    void freshTable() throws Exception {
        dataSource = new DriverManagerDataSource(SharedTestInfrastructure.jdbcUrl(DATABASE), DATABASE,
                ServiceDatabases.passwordOf(DATABASE));
        jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("DROP TABLE IF EXISTS retained_message");
        jdbc.execute("CREATE TABLE retained_message (id bigserial PRIMARY KEY, made_at timestamptz NOT NULL, "
                + "state varchar(16) NOT NULL)");
        jdbc.execute("DROP TABLE IF EXISTS shedlock");
        jdbc.execute(new String(getClass().getResourceAsStream("/db/shedlock/V0_3__shedlock.sql").readAllBytes(),
                StandardCharsets.UTF_8));
        meters = new SimpleMeterRegistry();
    }

    private void insert(int rows, String age, String state) {
        jdbc.update("INSERT INTO retained_message (made_at, state) SELECT clock_timestamp() - ?::interval, ? "
                + "FROM generate_series(1, ?)", age, state, rows);
    }

    private long count(String where) {
        return jdbc.queryForObject("SELECT count(*) FROM retained_message WHERE " + where, Long.class);
    }

    private Retention retention(int batchSize, int maxBatches, Map<String, Duration> keep) {
        return new Retention(jdbc, List.of(DELIVERED),
                new RetentionProperties(true, Duration.ofMinutes(10), batchSize, maxBatches, keep), meters);
    }

    private double removedCounter() {
        return meters.get("retention.rows.removed").tag("rule", "messages").tag("table", "retained_message")
                .counter().count();
    }

    @Test
    void aRowOlderThanTheRuleGoesAYoungerOneAndAProtectedOneStay() {
        insert(3, "2 hours", "SENT");
        insert(2, "59 minutes", "SENT");
        insert(1, "30 days", "PENDING");
        Retention retention = retention(1000, 10, Map.of());
        assertThat(removedCounter()).as("registered at 0 before any cycle").isZero();

        assertThat(retention.runCycle()).containsEntry("messages", 3);

        assertThat(count("made_at < clock_timestamp() - interval '1 hour' AND state = 'SENT'")).isZero();
        assertThat(count("state = 'SENT'")).as("younger than the rule").isEqualTo(2);
        assertThat(count("state = 'PENDING'")).as("protected by the rule's condition").isEqualTo(1);
        assertThat(removedCounter()).isEqualTo(3);
    }

    @Test
    void theKeepIsAPropertyOverTheRulesDefault() {
        insert(2, "20 minutes", "SENT");
        insert(1, "5 minutes", "SENT");

        retention(1000, 10, Map.of("messages", Duration.ofMinutes(10))).runCycle();

        assertThat(count("TRUE")).isEqualTo(1);
    }

    @Test
    void aCycleDeletesInBoundedBatchesAndTheNextCycleTakesTheRest() {
        insert(25, "2 hours", "SENT");
        Retention retention = retention(10, 2, Map.of());

        assertThat(retention.runCycle()).containsEntry("messages", 20);
        assertThat(count("TRUE")).isEqualTo(5);
        assertThat(retention.runCycle()).containsEntry("messages", 5);
        assertThat(count("TRUE")).isZero();
    }

    @Test
    void aRowAnotherTransactionHoldsIsSkippedNotWaitedFor() throws Exception {
        insert(3, "2 hours", "SENT");
        long held = jdbc.queryForObject("SELECT min(id) FROM retained_message", Long.class);
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService holder = Executors.newSingleThreadExecutor();
        try {
            Future<?> holding = holder.submit(() -> tx.executeWithoutResult(status -> {
                jdbc.queryForList("SELECT id FROM retained_message WHERE id = ? FOR UPDATE", held);
                locked.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
            long started = System.nanoTime();

            Map<String, Integer> removed = retention(1000, 10, Map.of()).runCycle();

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            assertThat(removed).containsEntry("messages", 2);
            assertThat(count("id = " + held)).isEqualTo(1);
            release.countDown();
            holding.get(10, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            holder.shutdownNow();
        }
        assertThat(retention(1000, 10, Map.of()).runCycle()).containsEntry("messages", 1);
    }

    @Test
    void twoReplicasRunOneCycleBetweenThem() throws Exception {
        insert(5, "2 hours", "SENT");
        CountDownLatch bothStarted = new CountDownLatch(2);
        ExecutorService replicas = Executors.newFixedThreadPool(2);
        try {
            List<Future<Boolean>> ran = replicas.invokeAll(List.of(
                    () -> replica("replica-1", bothStarted), () -> replica("replica-2", bothStarted)));
            long cycles = 0;
            for (Future<Boolean> f : ran) {
                cycles += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(cycles).as("replicas that ran the cycle").isEqualTo(1);
        } finally {
            replicas.shutdownNow();
        }
        assertThat(count("TRUE")).isZero();
        assertThat(meters.get("scheduled.job.runs").tag("job", "retention").tag("outcome", "skipped").counter()
                .count()).isEqualTo(1);
    }

    /** One replica's job on the shared lock table; whether it ran the cycle. */
    private boolean replica(String name, CountDownLatch bothStarted) throws InterruptedException {
        // ShedLock's JDBC provider as ClusterJobsAutoConfiguration sets it up: the database's clock, the replica's name.
        ClusterJobs jobs = new ClusterJobs(new DefaultLockingTaskExecutor(new JdbcTemplateLockProvider(
                JdbcTemplateLockProvider.Configuration.builder().withJdbcTemplate(jdbc).withTableName("shedlock")
                        .usingDbTime().withLockedByValue(name).build())), Clock.systemUTC(), meters);
        Retention retention = retention(1000, 10, Map.of());
        var job = jobs.job("retention", Duration.ofMinutes(10), Duration.ofMinutes(20));
        bothStarted.countDown();
        bothStarted.await(10, TimeUnit.SECONDS);
        return job.runOnce(retention::runCycle);
    }
}

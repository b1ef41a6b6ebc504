package dev.payments.support.schedule;

import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.ServiceDatabases;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose first lock attempt met a database failure runs again once the database is back: the provider as the
 * services get it, on a real PostgreSQL, the failure made by a trigger that refuses the lock row's insert (as a
 * connection broken mid-statement refuses it; the system tests' database outage met that on the settle job, which
 * then never ran again).
 */
class ClusterJobLockRowIntegrationTest {

    private static final String DATABASE = "cluster_jobs_it";

    @Test
    void aJobWhoseFirstLockInsertFailedRunsOnceTheDatabaseIsBack() throws Exception {
        DriverManagerDataSource dataSource = new DriverManagerDataSource(SharedTestInfrastructure.jdbcUrl(DATABASE),
                DATABASE, ServiceDatabases.passwordOf(DATABASE));
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("DROP TABLE IF EXISTS shedlock");
        jdbc.execute(new String(getClass().getResourceAsStream("/db/shedlock/V0_3__shedlock.sql").readAllBytes(),
                StandardCharsets.UTF_8));
        jdbc.execute("CREATE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql AS "
                + "$$ BEGIN RAISE EXCEPTION 'the database went away'; END $$");
        jdbc.execute("CREATE TRIGGER outage BEFORE INSERT ON shedlock FOR EACH ROW EXECUTE FUNCTION refuse_insert()");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ClusterJob job = new ClusterJobs(new DefaultLockingTaskExecutor(
                new ClusterJobsAutoConfiguration().clusterJobLocks(dataSource, "replica-1")), Clock.systemUTC(), meters)
                .job("settle", Duration.ofMillis(10), Duration.ofMinutes(1));
        int[] runs = {0};

        boolean duringTheOutage;
        try {
            duringTheOutage = job.runOnce(() -> runs[0]++);
        } catch (RuntimeException refused) {
            duringTheOutage = false;
        }
        jdbc.execute("DROP TRIGGER outage ON shedlock");

        assertThat(duringTheOutage).isFalse();
        assertThat(job.runOnce(() -> runs[0]++)).as("the first cycle after the database is back").isTrue();
        assertThat(runs[0]).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT locked_by FROM shedlock WHERE name = 'settle'", String.class))
                .isEqualTo("replica-1");
    }
}

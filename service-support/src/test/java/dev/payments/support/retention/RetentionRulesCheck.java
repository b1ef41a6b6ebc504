package dev.payments.support.retention;

import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.ServiceDatabases;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A service's retention rules, as its configuration declares them, against a fresh database migrated by the
 * service's own Flyway locations (real PostgreSQL, no Spring): each service's test inserts rows just inside and
 * just outside a rule and runs one cycle with the shipped defaults.
 */
public final class RetentionRulesCheck {

    private final JdbcTemplate jdbc;
    private final List<RetentionRule> rules;

    private RetentionRulesCheck(JdbcTemplate jdbc, List<RetentionRule> rules) {
        this.jdbc = jdbc;
        this.rules = rules;
    }

    /** @param locations the service's Flyway locations, e.g. {@code classpath:db/migration}, {@code classpath:db/inbox} */
    public static RetentionRulesCheck on(String database, List<RetentionRule> rules, String... locations) {
        DriverManagerDataSource dataSource = new DriverManagerDataSource(SharedTestInfrastructure.jdbcUrl(database),
                database, ServiceDatabases.passwordOf(database));
        Flyway flyway = Flyway.configure().dataSource(dataSource).locations(locations).cleanDisabled(false).load();
        flyway.clean();
        flyway.migrate();
        return new RetentionRulesCheck(new JdbcTemplate(dataSource), rules);
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** One cycle with every rule's shipped default; rows removed per rule. */
    public Map<String, Integer> runCycle() {
        return new Retention(jdbc, rules, new RetentionProperties(true, Duration.ofMinutes(10), 1000, 10, Map.of()),
                new SimpleMeterRegistry()).runCycle();
    }

    public long count(String table, String where) {
        return jdbc.queryForObject("SELECT count(*) FROM " + table + " WHERE " + where, Long.class);
    }
}

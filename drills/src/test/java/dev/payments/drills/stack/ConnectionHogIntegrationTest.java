package dev.payments.drills.stack;

import dev.payments.localstack.infra.EmbeddedPostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The db-outage drill's "exhaust" mode on a real PostgreSQL: what a service's pool meets while it runs. */
class ConnectionHogIntegrationTest {

    private static EmbeddedPostgresServer postgres;

    @BeforeAll
    static void startDatabase() {
        postgres = EmbeddedPostgresServer.start(EmbeddedPostgresServer.Options.forTests()
                .withSetting("max_connections", "20"));
    }

    @AfterAll
    static void stopDatabase() {
        postgres.close();
    }

    @Test
    void aServicesSessionIsEndedAndItsNewConnectionsAreRefusedAtOnceUntilTheSlotsAreGivenBack() throws Exception {
        Connection service = connect();
        ConnectionHog hog = new ConnectionHog(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password());
        try {
            assertThat(hog.maxConnections()).isEqualTo(20);
            int held = hog.take(Duration.ofMillis(50));

            assertThat(held).as("every slot the server gives a superuser").isEqualTo(20);
            assertThat(hog.terminated()).isGreaterThanOrEqualTo(1);
            assertThat(service.isValid(2)).as("the service's session was ended").isFalse();
            long began = System.nanoTime();
            assertThatThrownBy(ConnectionHogIntegrationTest::connect).isInstanceOfSatisfying(SQLException.class,
                    refused -> assertThat(refused.getSQLState()).isEqualTo("53300"));
            assertThat(Duration.ofNanos(System.nanoTime() - began)).as("refused at once").isLessThan(Duration.ofSeconds(2));
        } finally {
            hog.close();
        }

        try (Connection again = connect()) {
            assertThat(again.isValid(1)).isTrue();
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.username(), postgres.password());
    }
}

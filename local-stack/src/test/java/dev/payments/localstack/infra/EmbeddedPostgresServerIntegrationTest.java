package dev.payments.localstack.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedPostgresServerIntegrationTest {

    @TempDir
    Path dataDirectory;

    /**
     * A service's database belongs to a role of its own: it logs in with its password only, creates its tables and its
     * relay's publication and slot, and is neither superuser nor welcome in another service's database.
     */
    @Test
    void eachDatabaseHasARoleOfItsOwnThatCanRunTheRelayButNothingElse() throws Exception {
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(
                EmbeddedPostgresServer.Options.forTests().withDataDirectory(dataDirectory))) {
            server.createDatabase("orders");
            server.createDatabase("payments");
            server.createDatabase("orders");

            try (Connection connection = java.sql.DriverManager.getConnection(server.jdbcUrl("orders"), "orders",
                    ServiceDatabases.passwordOf("orders")); Statement sql = connection.createStatement()) {
                assertThat(single(sql, "SELECT current_user")).isEqualTo("orders");
                assertThat(single(sql, "SELECT rolsuper::text FROM pg_roles WHERE rolname = current_user")).isEqualTo("false");
                sql.execute("CREATE TABLE outbox (id uuid PRIMARY KEY, payload jsonb)");
                sql.execute("CREATE PUBLICATION outbox_publication FOR TABLE outbox");
                sql.execute("SELECT pg_create_logical_replication_slot('orders_slot', 'pgoutput')");
                sql.execute("SELECT pg_drop_replication_slot('orders_slot')");
            }
            assertThatThrownBy(() -> java.sql.DriverManager.getConnection(server.jdbcUrl("payments"), "orders",
                    ServiceDatabases.passwordOf("orders")).close())
                    .as("orders' role in payments' database").isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied");
            assertThatThrownBy(() -> java.sql.DriverManager.getConnection(server.jdbcUrl("orders"), "orders",
                    "not-the-password").close())
                    .as("a wrong password").isInstanceOf(SQLException.class).hasMessageContaining("password");
        }
    }

    @Test
    void servesDatabasesStreamsPgoutputChangesAndKeepsDataAcrossRestart() throws Exception {
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(
                EmbeddedPostgresServer.Options.forTests().withDataDirectory(dataDirectory))) {
            server.createDatabase("orders");
            server.createDatabase("orders");

            try (Connection connection = server.connect("orders"); Statement sql = connection.createStatement()) {
                assertThat(single(sql, "SHOW wal_level")).isEqualTo("logical");
                assertThat(single(sql, "SHOW synchronous_commit")).isEqualTo("on");
                assertThat(single(sql, "SHOW max_replication_slots")).isEqualTo("20");
                assertThat(single(sql, "SHOW server_version")).startsWith("17.");

                sql.execute("CREATE TABLE outbox (id uuid PRIMARY KEY, aggregateid text NOT NULL, payload jsonb)");
                sql.execute("CREATE PUBLICATION outbox_publication FOR TABLE outbox");
                sql.execute("SELECT pg_create_logical_replication_slot('orders_slot', 'pgoutput')");
                sql.execute("INSERT INTO outbox VALUES (gen_random_uuid(), 'order-1', '{\"amount\":15000}')");

                // pgoutput messages: B(egin), R(elation), I(nsert), C(ommit).
                assertThat(pgoutputMessageTypes(sql)).containsSubsequence("B", "R", "I", "C");
            }

            int port = server.port();
            server.restart();

            assertThat(server.port()).isEqualTo(port);
            try (Connection connection = server.connect("orders"); Statement sql = connection.createStatement()) {
                assertThat(single(sql, "SELECT aggregateid FROM outbox")).isEqualTo("order-1");
                assertThat(pgoutputMessageTypes(sql)).contains("I");
            }

            server.kill();
            assertThat(server.isRunning()).isFalse();
            server.start();
            try (Connection connection = server.connect("orders"); Statement sql = connection.createStatement()) {
                assertThat(single(sql, "SELECT count(*) FROM outbox")).as("recovered from the WAL after a kill").isEqualTo("1");
            }

            server.stop();
            assertThat(server.isRunning()).isFalse();
            assertThatThrownBy(() -> server.connect("orders").close()).isInstanceOf(SQLException.class);
        }
        assertThat(Files.exists(dataDirectory.resolve("PG_VERSION"))).as("persistent data directory kept").isTrue();
    }

    @Test
    void temporaryDataDirectoryIsDeletedOnClose() {
        Path temporary;
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(EmbeddedPostgresServer.Options.forTests())) {
            temporary = server.dataDirectory();
            assertThat(server.jdbcUrl("postgres")).isEqualTo("jdbc:postgresql://127.0.0.1:" + server.port() + "/postgres");
        }
        assertThat(temporary).doesNotExist();
    }

    private static List<String> pgoutputMessageTypes(Statement sql) throws SQLException {
        List<String> types = new ArrayList<>();
        try (ResultSet rows = sql.executeQuery("SELECT data FROM pg_logical_slot_peek_binary_changes("
                + "'orders_slot', NULL, NULL, 'proto_version', '1', 'publication_names', 'outbox_publication')")) {
            while (rows.next()) {
                types.add(String.valueOf((char) rows.getBytes(1)[0]));
            }
        }
        return types;
    }

    private static String single(Statement sql, String query) throws SQLException {
        try (ResultSet row = sql.executeQuery(query)) {
            assertThat(row.next()).isTrue();
            return row.getString(1);
        }
    }
}

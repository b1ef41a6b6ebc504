package dev.payments.localstack.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A service's own database and role on a PostgreSQL server, the embedded one or a container's: what each service
 * connects as, and who else may not.
 */
public final class ServiceDatabases {

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String DUPLICATE_DATABASE = "42P04";
    private static final String DUPLICATE_ROLE = "42710";

    private ServiceDatabases() {
    }

    /**
     * The password of a service's role: LOCAL ONLY, like the stack's superuser's. Checked (scram-sha-256) on every
     * connection but the superuser's, see {@link #writeHostBasedAuthentication(Path)}.
     */
    public static String passwordOf(String database) {
        return database + "-local";
    }

    /** A connection to a server's maintenance database; the caller closes it. */
    @FunctionalInterface
    public interface AdminConnection {
        Connection open() throws SQLException;
    }

    /**
     * Creates a service's database on any PostgreSQL server (this one, or a container's) unless it exists, owned by a
     * role of the same name (password {@link #passwordOf(String)}) that the service connects as: not a superuser, no
     * other database, no roles, but {@code REPLICATION} for its outbox relay's slot. {@code CONNECT} is revoked from
     * {@code PUBLIC}, so no other service's role can get in (docs/security-infrastructure.md).
     */
    public static void create(AdminConnection admin, String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain lower-case database name: " + name);
        }
        try (Connection connection = admin.open()) {
            createRole(connection, name);
            Optional<String> owner = ownerOf(connection, name);
            if (owner.isEmpty()) {
                try (Statement create = connection.createStatement()) {
                    create.execute("CREATE DATABASE " + name + " OWNER " + name);
                } catch (SQLException e) {
                    if (!DUPLICATE_DATABASE.equals(e.getSQLState())) {
                        throw e;
                    }
                }
            } else if (!owner.get().equals(name)) {
                // Its tables belong to that owner, which the service no longer connects as.
                throw new IllegalStateException("database " + name + " is owned by " + owner.get() + ", not by the role "
                        + name + " the service connects as: it predates per-service roles; start once with --clean");
            }
            try (Statement revoke = connection.createStatement()) {
                revoke.execute("REVOKE CONNECT, TEMPORARY ON DATABASE " + name + " FROM PUBLIC");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
    }

    private static void createRole(Connection connection, String name) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            exists.setString(1, name);
            try (ResultSet row = exists.executeQuery()) {
                if (row.next()) {
                    return;
                }
            }
        }
        try (Statement create = connection.createStatement()) {
            create.execute("CREATE ROLE " + name + " LOGIN REPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '"
                    + passwordOf(name) + "'");
        } catch (SQLException e) {
            if (!DUPLICATE_ROLE.equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    private static Optional<String> ownerOf(Connection connection, String database) throws SQLException {
        try (PreparedStatement owner = connection.prepareStatement(
                "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = ?")) {
            owner.setString(1, database);
            try (ResultSet row = owner.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
        }
    }

    /**
     * zonky's initdb trusts every local connection, so a role's password would be decoration: beside the data
     * directory (initdb wants that one empty) goes a {@code pg_hba.conf} that trusts only the superuser - the launcher,
     * the tests' inspection - and asks every other role, i.e. each service, for its password.
     */
    static Path writeHostBasedAuthentication(Path dataDirectory) throws IOException {
        Path hba = dataDirectory.resolveSibling(dataDirectory.getFileName() + "-pg_hba.conf");
        Files.writeString(hba, String.join("\n",
                "# written by local-stack's EmbeddedPostgresServer on every start",
                "local all " + EmbeddedPostgresServer.USERNAME + " trust",
                "host all " + EmbeddedPostgresServer.USERNAME + " 127.0.0.1/32 trust",
                "host all " + EmbeddedPostgresServer.USERNAME + " ::1/128 trust",
                "local all all scram-sha-256",
                "host all all 127.0.0.1/32 scram-sha-256",
                "host all all ::1/128 scram-sha-256",
                ""));
        return hba;
    }
}

package dev.payments.outbox.relay;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/** Host, port and database of a {@code jdbc:postgresql://} URL, as Debezium wants them. */
record PostgresTarget(String jdbcUrl, String host, int port, String database, String username, String password) {

    static PostgresTarget parse(String jdbcUrl, String username, String password) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql://")) {
            throw new IllegalArgumentException("The outbox relay needs a jdbc:postgresql:// URL, got " + jdbcUrl);
        }
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        String path = uri.getPath();
        if (path == null || path.length() < 2) {
            throw new IllegalArgumentException("No database name in " + jdbcUrl);
        }
        return new PostgresTarget(jdbcUrl, uri.getHost(), uri.getPort() == -1 ? 5432 : uri.getPort(),
                path.substring(1), username, password);
    }

    /** A connection of the relay's own, never one from the request pool; the caller closes it. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, credentials());
    }

    /**
     * A connection whose reads give up after {@code socketTimeout}: a database that went silent (frozen host, network
     * cut without a reset) fails the call instead of hanging the relay's thread.
     */
    Connection connect(Duration socketTimeout) throws SQLException {
        Properties options = credentials();
        String seconds = String.valueOf(Math.max(1, socketTimeout.toSeconds()));
        options.setProperty("socketTimeout", seconds);
        options.setProperty("connectTimeout", seconds);
        options.setProperty("tcpKeepAlive", "true");
        options.setProperty("ApplicationName", "outbox-relay");
        return DriverManager.getConnection(jdbcUrl, options);
    }

    private Properties credentials() {
        Properties options = new Properties();
        if (username != null) {
            options.setProperty("user", username);
        }
        if (password != null) {
            options.setProperty("password", password);
        }
        return options;
    }
}

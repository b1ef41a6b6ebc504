package dev.payments.outbox.relay;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The relay's row in {@code outbox_relay}: how far it has published (a snapshot: every outbox row whose transaction it
 * sees is in Kafka), which Debezium engine may continue from there, and whether its slot was ever taken into use.
 * Written only on the lease's session, so a holder that lost its lease cannot move it.
 */
final class RelayProgress {

    /** A snapshot that sees no transaction: nothing counts as published. */
    static final String NOTHING = "1:1:";

    private final String slotName;

    RelayProgress(String slotName) {
        this.slotName = slotName;
    }

    /**
     * What the row says.
     *
     * @param created whether the row did not exist before this load: a relay with no record of its slot
     */
    record State(String publishedThrough, String engineName, boolean slotInUse, boolean created) {

        State withPublishedThrough(String snapshot) {
            return new State(snapshot, engineName, slotInUse, created);
        }

        State withEngine(String name) {
            return new State(publishedThrough, name, name != null || slotInUse, created);
        }

        State withSlotInUse(boolean inUse) {
            return new State(publishedThrough, engineName, inUse, created);
        }
    }

    State load(Connection lease) throws SQLException {
        boolean created;
        try (PreparedStatement insert = lease.prepareStatement(
                "INSERT INTO outbox_relay (slot_name) VALUES (?) ON CONFLICT (slot_name) DO NOTHING")) {
            insert.setString(1, slotName);
            created = insert.executeUpdate() == 1;
        }
        try (PreparedStatement select = lease.prepareStatement(
                "SELECT published_through::text, engine_name, slot_in_use FROM outbox_relay WHERE slot_name = ?")) {
            select.setString(1, slotName);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return new State(rs.getString(1), rs.getString(2), rs.getBoolean(3), created);
            }
        }
    }

    void publishedThrough(Connection lease, String snapshot) throws SQLException {
        update(lease, "published_through = CAST(? AS pg_snapshot)", snapshot);
    }

    /** The named engine continues from the recorded snapshot; its slot is in use. */
    void engineTakesOver(Connection lease, String engineName) throws SQLException {
        update(lease, "engine_name = ?, slot_in_use = true", engineName);
    }

    /** The polling relay publishes: no engine may resume from its own offsets any more. */
    void pollingTakesOver(Connection lease) throws SQLException {
        try (PreparedStatement statement = lease.prepareStatement(
                "UPDATE outbox_relay SET engine_name = NULL, updated_at = now() WHERE slot_name = ?")) {
            statement.setString(1, slotName);
            statement.executeUpdate();
        }
    }

    /** Whether a missing slot is a lost one from now on. */
    void slotInUse(Connection lease, boolean inUse) throws SQLException {
        try (PreparedStatement statement = lease.prepareStatement(
                "UPDATE outbox_relay SET slot_in_use = ?, updated_at = now() WHERE slot_name = ?")) {
            statement.setBoolean(1, inUse);
            statement.setString(2, slotName);
            statement.executeUpdate();
        }
    }

    private void update(Connection lease, String assignment, String value) throws SQLException {
        try (PreparedStatement statement = lease.prepareStatement(
                "UPDATE outbox_relay SET " + assignment + ", updated_at = now() WHERE slot_name = ?")) {
            statement.setString(1, value);
            statement.setString(2, slotName);
            if (statement.executeUpdate() != 1) {
                throw new SQLException("No outbox_relay row for " + slotName);
            }
        }
    }
}

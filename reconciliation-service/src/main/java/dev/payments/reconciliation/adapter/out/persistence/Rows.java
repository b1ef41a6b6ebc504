package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.reconciliation.domain.projection.Bookkeeping;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** Column conversions shared by the adapters. */
final class Rows {

    private Rows() {
    }

    static UUID uuid(ResultSet row, String column) throws SQLException {
        return row.getObject(column, UUID.class);
    }

    static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    /** The bookkeeping columns every projected view has: which event decided it, when, and how many applied. */
    static Bookkeeping bookkeeping(ResultSet row) throws SQLException {
        return new Bookkeeping(uuid(row, "last_event_id"), row.getString("last_event_type"),
                instant(row, "last_event_at"), instant(row, "first_seen_at"), instant(row, "updated_at"),
                row.getInt("events_applied"), row.getInt("conflicts"));
    }

    static void putBookkeeping(Map<String, Object> params, Bookkeeping bookkeeping) {
        params.put("lastEventId", bookkeeping.lastEventId());
        params.put("lastEventType", bookkeeping.lastEventType());
        params.put("lastEventAt", timestamp(bookkeeping.lastEventAt()));
        params.put("firstSeenAt", timestamp(bookkeeping.firstSeenAt()));
        params.put("updatedAt", timestamp(bookkeeping.updatedAt()));
        params.put("eventsApplied", bookkeeping.eventsApplied());
        params.put("conflicts", bookkeeping.conflicts());
    }

    static Timestamp timestamp(Instant value) {
        return value == null ? null : Timestamp.from(value);
    }
}

package dev.payments.reconciliation.adapter.out.persistence;

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
    static void putBookkeeping(Map<String, Object> params, UUID lastEventId, String lastEventType, Instant lastEventAt,
                               Instant firstSeenAt, Instant updatedAt, int eventsApplied, int conflicts) {
        params.put("lastEventId", lastEventId);
        params.put("lastEventType", lastEventType);
        params.put("lastEventAt", timestamp(lastEventAt));
        params.put("firstSeenAt", timestamp(firstSeenAt));
        params.put("updatedAt", timestamp(updatedAt));
        params.put("eventsApplied", eventsApplied);
        params.put("conflicts", conflicts);
    }

    static Timestamp timestamp(Instant value) {
        return value == null ? null : Timestamp.from(value);
    }
}

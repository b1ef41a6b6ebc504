package dev.payments.outbox.relay;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * How far the Debezium relay has published, recorded once per interval instead of once per event. Each tick takes the
 * current snapshot and, right after it, the WAL insert position: every transaction that snapshot sees wrote its
 * commit record before that position. Once the slot's {@code confirmed_flush_lsn} reaches the position, PostgreSQL
 * will never send those transactions again, which the engine allows only after Kafka acknowledged them (the
 * publisher marks a batch processed after its acks): the snapshot is then the published watermark.
 */
final class DebeziumWatermark {

    private static final String TICK = """
            SELECT pg_current_snapshot()::text, pg_current_wal_insert_lsn()::text,
                   (SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?)""";
    private static final int MAX_CANDIDATES = 600;

    private final String slotName;
    private final Deque<Candidate> candidates = new ArrayDeque<>();

    private record Candidate(String snapshot, long lsn) {
    }

    DebeziumWatermark(String slotName) {
        this.slotName = slotName;
    }

    /** Takes a new candidate and records the newest confirmed one, if it moved. */
    void tick(RelaySession session) throws SQLException {
        String confirmed;
        try (PreparedStatement query = session.work().prepareStatement(TICK)) {
            query.setString(1, slotName);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                candidates.addLast(new Candidate(rs.getString(1), parseLsn(rs.getString(2))));
                confirmed = rs.getString(3);
            }
        }
        if (candidates.size() > MAX_CANDIDATES) {
            candidates.removeFirst();
        }
        if (confirmed == null) {
            return;
        }
        long confirmedLsn = parseLsn(confirmed);
        Candidate newest = null;
        while (!candidates.isEmpty() && candidates.peekFirst().lsn() <= confirmedLsn) {
            newest = candidates.removeFirst();
        }
        if (newest != null) {
            session.publishedThrough(newest.snapshot());
        }
    }

    /** PostgreSQL's {@code X/Y} text form of a WAL position. */
    static long parseLsn(String lsn) {
        int slash = lsn.indexOf('/');
        return (Long.parseUnsignedLong(lsn.substring(0, slash), 16) << 32)
                | Long.parseUnsignedLong(lsn.substring(slash + 1), 16);
    }
}

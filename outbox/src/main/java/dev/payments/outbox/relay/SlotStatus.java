package dev.payments.outbox.relay;

/**
 * The replication slot as {@code pg_replication_slots} shows it.
 *
 * @param condition         what the relay may do with it
 * @param walStatus         PostgreSQL's {@code wal_status}, null when the slot is missing
 * @param retainedWalBytes  WAL the slot keeps from being recycled, -1 when missing or lost
 * @param activePid         the backend streaming it, 0 when none
 */
record SlotStatus(Condition condition, String walStatus, long retainedWalBytes, int activePid) {

    enum Condition {
        /** Exists and keeps every WAL segment a consumer still needs. */
        HEALTHY,
        /** Exists but past {@code max_wal_size}: PostgreSQL invalidates it at the next checkpoint unless it catches up. */
        AT_RISK,
        /** No such slot. */
        MISSING,
        /** Invalidated ({@code wal_status = 'lost'}): it can no longer stream what it was created for. */
        LOST
    }

    static final SlotStatus MISSING = new SlotStatus(Condition.MISSING, null, -1, 0);

    /** Classifies a row of {@code pg_replication_slots}. */
    static SlotStatus of(String walStatus, Long retainedWalBytes, Integer activePid) {
        int pid = activePid == null ? 0 : activePid;
        if ("lost".equals(walStatus)) {
            return new SlotStatus(Condition.LOST, walStatus, -1, pid);
        }
        Condition condition = "unreserved".equals(walStatus) ? Condition.AT_RISK : Condition.HEALTHY;
        return new SlotStatus(condition, walStatus, retainedWalBytes == null ? 0 : retainedWalBytes, pid);
    }

    /** Whether the engine can stream from it. */
    boolean healthy() {
        return condition == Condition.HEALTHY || condition == Condition.AT_RISK;
    }

    boolean exists() {
        return condition != Condition.MISSING;
    }
}

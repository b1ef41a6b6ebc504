package dev.payments.outbox.relay;

import org.apache.kafka.clients.producer.Producer;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * One tenure of the lease: the lease and its session, a second connection for reads and slot work (which may take
 * longer than the lease's socket timeout allows), the producer, and the relay's progress as last recorded.
 */
final class RelaySession implements AutoCloseable {

    private final RelayLease lease;
    private final Connection work;
    private final Producer<String, String> producer;
    private final RelayProgress progress;
    private RelayProgress.State state;

    RelaySession(RelayLease lease, Connection work, Producer<String, String> producer, RelayProgress progress)
            throws SQLException {
        this.lease = lease;
        this.work = work;
        this.producer = producer;
        this.progress = progress;
        this.state = progress.load(lease.connection());
    }

    RelayLease lease() {
        return lease;
    }

    Connection work() {
        return work;
    }

    Producer<String, String> producer() {
        return producer;
    }

    RelayProgress.State state() {
        return state;
    }

    String publishedThrough() {
        return state.publishedThrough();
    }

    /** Records the watermark on the lease's session: a holder that lost its lease fails here. */
    void publishedThrough(String snapshot) throws SQLException {
        requireLease();
        progress.publishedThrough(lease.connection(), snapshot);
        state = state.withPublishedThrough(snapshot);
    }

    void engineTakesOver(String engineName) throws SQLException {
        requireLease();
        progress.engineTakesOver(lease.connection(), engineName);
        state = state.withEngine(engineName);
    }

    void pollingTakesOver() throws SQLException {
        requireLease();
        progress.pollingTakesOver(lease.connection());
        state = state.withEngine(null);
    }

    void slotInUse(boolean inUse) throws SQLException {
        requireLease();
        progress.slotInUse(lease.connection(), inUse);
        state = state.withSlotInUse(inUse);
    }

    /** Nothing is sent or recorded once the lease may be someone else's. */
    void requireLease() {
        if (!lease.isValid()) {
            throw new LeaseLostException();
        }
    }

    @Override
    public void close() {
        try {
            work.close();
        } catch (SQLException e) {
            // the session ends with the connection either way
        }
        producer.close(Duration.ofSeconds(5));
        lease.close();
    }

    /** The lease ran out while this session was publishing. */
    static final class LeaseLostException extends RuntimeException {
        LeaseLostException() {
            super("The outbox relay lease is no longer valid");
        }
    }
}

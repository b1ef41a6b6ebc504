package dev.payments.outbox.inbox;

import dev.payments.contracts.MalformedEventException;
import dev.payments.contracts.UnknownEventTypeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Every failure a consumer's effect meets, and what it says about the event. */
class ConsumerFailuresTest {

    /** What a service's aggregate throws for an illegal transition. */
    static final class IllegalTransitionException extends RuntimeException {
        IllegalTransitionException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final ConsumerFailures failures =
            new ConsumerFailures(InapplicableEvents.signalledBy(IllegalTransitionException.class));

    static Stream<Arguments> failures() {
        return Stream.of(
                // The database refused, went away or is out of slots: the event waits.
                arguments("too many connections", sql("53300"), FailureKind.TRANSIENT),
                arguments("connection refused", sql("08001"), FailureKind.TRANSIENT),
                arguments("I/O error on a pooled connection", sql("08006"), FailureKind.TRANSIENT),
                arguments("terminated by a failover", sql("57P01"), FailureKind.TRANSIENT),
                arguments("starting up or shutting down", sql("57P03"), FailureKind.TRANSIENT),
                arguments("statement timeout", sql("57014"), FailureKind.TRANSIENT),
                arguments("lock timeout", sql("55P03"), FailureKind.TRANSIENT),
                arguments("serialization failure", sql("40001"), FailureKind.TRANSIENT),
                arguments("deadlock", sql("40P01"), FailureKind.TRANSIENT),
                arguments("a write on a standby after a failover", sql("25006"), FailureKind.TRANSIENT),
                arguments("a rotated password", sql("28P01"), FailureKind.TRANSIENT),
                arguments("a revoked grant", sql("42501"), FailureKind.TRANSIENT),
                arguments("Hikari's pool timeout", new SQLTransientConnectionException(
                        "HikariPool-1 - Connection is not available, request timed out after 250ms."),
                        FailureKind.TRANSIENT),
                arguments("no connection for the transaction, as TransactionTemplate says it",
                        new CannotCreateTransactionException("Could not open JDBC Connection for transaction",
                                new SQLTransientConnectionException("pool timeout", sql("53300"))),
                        FailureKind.TRANSIENT),
                arguments("no connection for JdbcClient", new CannotGetJdbcConnectionException("x", sql("08001")),
                        FailureKind.TRANSIENT),
                arguments("Spring's lock failure", new CannotAcquireLockException("x"), FailureKind.TRANSIENT),
                arguments("Spring's query timeout", new QueryTimeoutException("x"), FailureKind.TRANSIENT),
                arguments("a commit that lost its connection",
                        new TransactionSystemException("Could not commit", sql("08006")), FailureKind.TRANSIENT),
                arguments("a rollback that failed because the statement before it lost the connection",
                        rollbackFailedAfter(sql("08006")), FailureKind.TRANSIENT),
                arguments("as the listener container wraps it", listenerFailure(sql("53300")),
                        FailureKind.TRANSIENT),
                arguments("a refusal whose cause is the database being away",
                        new IllegalTransitionException("x", sql("57P01")), FailureKind.TRANSIENT),
                arguments("the state in a chained next exception", nextException(sql("40001")),
                        FailureKind.TRANSIENT),

                // The event itself can never be applied: parked at once.
                arguments("not an envelope", new MalformedEventException("Not JSON", null), FailureKind.PERMANENT),
                arguments("an unknown type", new UnknownEventTypeException("OrderShipped", UUID.randomUUID()),
                        FailureKind.PERMANENT),
                arguments("the service's illegal transition", listenerFailure(
                        new IllegalTransitionException("PAID -> FAILED", null)), FailureKind.PERMANENT),
                arguments("a payload of another type", new ClassCastException("x"), FailureKind.PERMANENT),

                // Neither: a few retries, then parked.
                arguments("a bug", new IllegalStateException("x"), FailureKind.UNCLASSIFIED),
                arguments("a constraint violation", new DataIntegrityViolationException("x", sql("23505")),
                        FailureKind.UNCLASSIFIED),
                arguments("a syntax error", sql("42601"), FailureKind.UNCLASSIFIED),
                arguments("an SQL exception without a state", new SQLException("x"), FailureKind.UNCLASSIFIED));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("failures")
    void classifies(String what, Throwable failure, FailureKind expected) {
        assertThat(failures.classify(failure)).isEqualTo(expected);
    }

    private static SQLException sql(String state) {
        return new SQLException("SQLSTATE " + state, state);
    }

    private static Throwable listenerFailure(Throwable cause) {
        return new ListenerExecutionFailedException("Listener method failed", cause);
    }

    private static SQLException nextException(SQLException next) {
        SQLException batch = new SQLException("Batch entry 0 was aborted", "XX000");
        batch.setNextException(next);
        return batch;
    }

    /**
     * What {@code TransactionTemplate} throws when the rollback after a failure fails too: Hikari's closed connection,
     * with no SQLSTATE, as the cause, and the failure that made it roll back only as the application exception (a
     * database outage: such an event must wait for the database, not be dead-lettered).
     */
    private static TransactionSystemException rollbackFailedAfter(SQLException failure) {
        TransactionSystemException rollbackFailed =
                new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed"));
        rollbackFailed.initApplicationException(new DataAccessResourceFailureException("I/O error", failure));
        return rollbackFailed;
    }
}

package dev.payments.outbox.inbox;

import dev.payments.contracts.MalformedEventException;
import dev.payments.contracts.UnknownEventTypeException;
import org.springframework.core.convert.ConversionException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.handler.invocation.MethodArgumentResolutionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Classifies why a consumer could not apply an event (docs/decisions/consumer-errors.md). The question is whether the
 * event is at fault: only then may it leave its partition for the dead-letter topic. A failure anywhere in the cause
 * chain that says the database (or the way to it) is unavailable makes the whole failure {@link FailureKind#TRANSIENT},
 * even if something permanent-looking wraps it: an event parked because the database blinked leaves a charged
 * customer's order PAYMENT_PENDING, and every later event of that order behind it.
 */
public final class ConsumerFailures {

    /**
     * PostgreSQL SQLSTATE classes and codes (Appendix A of its manual) that say nothing about the event: the server
     * or the connection to it failed, is out of resources, is shutting down or starting, or refused us for a reason
     * an operator fixes (authentication, a missing database, a revoked grant).
     */
    private static final Set<String> TRANSIENT_SQL_STATE_CLASSES = Set.of(
            "08",   // connection exception: refused, broken, failed to establish
            "53",   // insufficient resources: 53300 too many connections, disk full, out of memory
            "28");  // invalid authorization: a rotated password fails every event alike
    private static final Set<String> TRANSIENT_SQL_STATES = Set.of(
            "40001", // serialization_failure
            "40P01", // deadlock_detected
            "40003", // statement_completion_unknown
            "55P03", // lock_not_available (lock_timeout)
            "57014", // query_canceled (statement_timeout)
            "57P01", // admin_shutdown: a fast shutdown or a failover terminated the session
            "57P02", // crash_shutdown
            "57P03", // cannot_connect_now: starting up, shutting down, in recovery
            "57P05", // idle_session_timeout
            "58000", // system_error
            "58030", // io_error
            "25006", // read_only_sql_transaction: a write reached a standby during a failover
            "3D000", // invalid_catalog_name: the database is missing (restore, wrong address)
            "42501"); // insufficient_privilege: a revoked grant fails every event alike

    /** Types that mean the same whatever their SQLSTATE: no connection, or the driver or pool says "try again". */
    private static final List<Class<? extends Throwable>> TRANSIENT_TYPES = List.of(
            SQLTransientException.class,          // Hikari's pool timeout, query timeouts, rollbacks
            SQLRecoverableException.class,
            CannotGetJdbcConnectionException.class,
            CannotCreateTransactionException.class,
            TransientDataAccessException.class,   // Spring's lock, query-timeout and concurrency failures
            RecoverableDataAccessException.class);

    /** Never applicable, whichever service reads them; the Spring Kafka ones are its own default list. */
    private static final List<Class<? extends Throwable>> ALWAYS_PERMANENT = List.of(
            MalformedEventException.class,
            UnknownEventTypeException.class,
            DeserializationException.class,
            MessageConversionException.class,
            ConversionException.class,
            MethodArgumentResolutionException.class,
            NoSuchMethodException.class,
            ClassCastException.class);

    private final List<Class<? extends Throwable>> permanent;

    /** @param inapplicable what the consuming service's effects throw to refuse an event for good */
    public ConsumerFailures(InapplicableEvents inapplicable) {
        this.permanent = Stream.concat(ALWAYS_PERMANENT.stream(), inapplicable.exceptions().stream()).toList();
    }

    public FailureKind classify(Throwable failure) {
        List<Throwable> chain = chain(failure);
        if (chain.stream().anyMatch(ConsumerFailures::isTransient)) {
            return FailureKind.TRANSIENT;
        }
        if (chain.stream().anyMatch(cause -> permanent.stream().anyMatch(type -> type.isInstance(cause)))) {
            return FailureKind.PERMANENT;
        }
        return FailureKind.UNCLASSIFIED;
    }

    private static boolean isTransient(Throwable cause) {
        if (TRANSIENT_TYPES.stream().anyMatch(type -> type.isInstance(cause))) {
            return true;
        }
        if (cause instanceof SQLException sql && sql.getSQLState() != null) {
            String state = sql.getSQLState();
            return TRANSIENT_SQL_STATES.contains(state)
                    || (state.length() >= 2 && TRANSIENT_SQL_STATE_CLASSES.contains(state.substring(0, 2)));
        }
        return false;
    }

    /**
     * The failure, its causes, for SQL exceptions the chained next exceptions, and for a failed rollback the failure
     * that caused it; each once. When a statement loses its connection, the rollback after it fails too, and
     * {@code TransactionTemplate} throws the rollback's failure (Hikari's "Connection is closed", no SQLSTATE) with the
     * statement's failure (08006) only as its application exception.
     */
    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> pending = new ArrayList<>(List.of(failure));
        while (!pending.isEmpty()) {
            Throwable next = pending.remove(0);
            if (next == null || !seen.add(next)) {
                continue;
            }
            chain.add(next);
            pending.add(next.getCause());
            if (next instanceof SQLException sql) {
                pending.add(sql.getNextException());
            }
            if (next instanceof TransactionSystemException rollbackFailed) {
                pending.add(rollbackFailed.getApplicationException());
            }
        }
        return chain;
    }
}

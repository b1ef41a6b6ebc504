package dev.payments.payment.adapter.out.ratelimit;

import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Hands a library that runs its own transactions the connection of the transaction its caller is in, with the
 * transaction's ends taken out of its hands.
 *
 * <p>Bucket4j's select-for-update proxy manager takes a connection, turns auto-commit off, locks and updates the
 * member's row, commits and closes. Given TX-1's connection as it is, that commit would commit TX-1 half-way. Through
 * this data source its statements run in TX-1 and TX-1's owner alone ends it: {@code setAutoCommit},
 * {@code commit()} and {@code rollback()} do nothing, and {@code close()} hands the connection back to the
 * transaction. A no-op rollback loses nothing, because Bucket4j rolls back only (a) on an error, which it then
 * throws, so the caller's transaction rolls back; and (b) when its insert of a new member's row met a row a
 * concurrent transaction had just committed. That insert ({@code ON CONFLICT DO NOTHING}) wrote nothing and raised
 * no error, and the retry that follows reads the committed row (READ COMMITTED).
 */
final class CallersTransaction extends DelegatingDataSource {

    CallersTransaction(DataSource target) {
        super(target);
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("The member's allowance is taken in the caller's transaction, and there is none");
        }
        DataSource target = obtainTargetDataSource();
        Connection connection = DataSourceUtils.getConnection(target);
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "setAutoCommit", "commit" -> null;
                    case "rollback" -> {
                        if (args != null) {
                            throw new UnsupportedOperationException("Savepoints belong to the caller's transaction");
                        }
                        yield null;
                    }
                    case "close" -> {
                        DataSourceUtils.releaseConnection(connection, target);
                        yield null;
                    }
                    default -> {
                        try {
                            yield method.invoke(connection, args);
                        } catch (InvocationTargetException e) {
                            throw e.getTargetException();
                        }
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) {
        throw new UnsupportedOperationException("Only the caller's transaction's connection");
    }
}

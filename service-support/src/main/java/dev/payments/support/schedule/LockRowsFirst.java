package dev.payments.support.schedule;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a job's lock row before ShedLock first asks for the lock, once per job name. ShedLock's JDBC provider tries to
 * insert the row the first time and, if that insert fails for any reason, remembers the row as existing and only ever
 * updates it afterwards; an insert that failed because the database went away mid-statement (a broken connection, its
 * rollback failing too) leaves no row, every later update matches nothing, and the job never runs again on this
 * replica. With the row written here first (its lock already expired), the provider's insert finds it and its update
 * always has a row to take. A failure to write it is thrown, and the next cycle writes it again.
 */
final class LockRowsFirst implements LockProvider {

    private final LockProvider delegate;
    private final JdbcTemplate jdbc;
    private final Set<String> written = ConcurrentHashMap.newKeySet();

    LockRowsFirst(LockProvider delegate, JdbcTemplate jdbc) {
        this.delegate = delegate;
        this.jdbc = jdbc;
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        String name = configuration.getName();
        if (!written.contains(name)) {
            jdbc.update("INSERT INTO shedlock (name, lock_until, locked_at, locked_by) VALUES (?, "
                    + "timezone('utc', CURRENT_TIMESTAMP), timezone('utc', CURRENT_TIMESTAMP), '') "
                    + "ON CONFLICT (name) DO NOTHING", name);
            written.add(name);
        }
        return delegate.lock(configuration);
    }
}

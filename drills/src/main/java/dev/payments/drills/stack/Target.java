package dev.payments.drills.stack;

import dev.payments.localstack.identity.Tokens;

/** Where the system under drill answers, and the operator's handle to stop, start or kill its parts. */
public interface Target extends AutoCloseable {

    String orderUrl();

    String paymentUrl();

    String notificationUrl();

    String reconciliationUrl();

    String pgUrl();

    String pgAdminUrl();

    String bootstrapServers();

    /** The stack's PostgreSQL server (its maintenance database), reached as its superuser. */
    String postgresJdbcUrl();

    /**
     * Access tokens of the target's issuer: the load generator signs each member in once and reuses the token until
     * shortly before it expires; reads of reconciliation go as operator-1.
     */
    Tokens tokens();

    /**
     * @param component a local-stack component id ({@code postgres}, {@code kafka}, {@code payment-service}, ...)
     * @param action    {@code stop}, {@code start}, {@code restart} or {@code kill}; returns once done (start: healthy)
     */
    void control(String component, String action);

    /** What this target is, for the report: "own stack (random ports)" or the URLs of an external one. */
    String describe();

    @Override
    void close();
}

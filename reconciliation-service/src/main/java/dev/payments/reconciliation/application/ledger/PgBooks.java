package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.ledger.PgTransaction;

import java.time.Instant;
import java.util.List;

/** The PG's books (port): its transaction listing, the ground truth the ledger audit checks ours against. */
public interface PgBooks {

    /**
     * Every APPROVE and CANCEL with {@code from <= transactedAt < to}, all pages.
     *
     * @throws PgUnavailableException if the PG could not be read
     */
    List<PgTransaction> transactions(Instant from, Instant to);
}

package dev.payments.reconciliation.domain.projection;

/** What one event did to its view; kept in the event history so an operator can see why a view is what it is. */
public enum ProjectionEffect {

    /** The first event seen for this payment or order: the view was created from it. */
    CREATED,
    /** It moved the view to a later state. */
    ADVANCED,
    /**
     * It describes a state the view had already reached or passed (it arrived late, or repeats an outcome under a new
     * event id): the state is kept, facts it adds (a PG transaction key, an approval time) are merged.
     */
    STALE,
    /**
     * It names a different outcome of the same rank (FAILED after APPROVED), which the state machine never produces:
     * the later occurrence decides and the view counts the conflict, so the ledger audit can point at it.
     */
    CONFLICT
}

package dev.payments.reconciliation.domain.incidents;

/** Where a human stands with an incident. Legal moves: OPEN -> ACKNOWLEDGED -> RESOLVED, and OPEN -> RESOLVED. */
public enum IncidentState {

    /** Nobody has taken it yet: the operator alert is on. The settler keeps trying to repair it, slowly. */
    OPEN,
    /** A human owns it now; the settler leaves the payment alone so it does not act behind their back. */
    ACKNOWLEDGED,
    /** Closed by a human (or by the settler when it repaired the payment itself); final and kept forever. */
    RESOLVED
}

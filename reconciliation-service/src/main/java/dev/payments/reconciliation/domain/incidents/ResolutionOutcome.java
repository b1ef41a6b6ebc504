package dev.payments.reconciliation.domain.incidents;

/** What the person (or the settler) who closed an incident established about its money. */
public enum ResolutionOutcome {
    /** The money went back to the customer through the PG (a cancel by hand in the PG's console). */
    REFUNDED_AT_PG,
    /** The charge stands and is ours: the order is paid (or will be) and nothing is owed back. */
    CHARGE_CONFIRMED,
    /** The PG took no money for it: nothing to give back. */
    NO_MONEY_MOVED,
    /** The settler repaired the payment after all (a later sync settled it by the usual rules). */
    SETTLED_AUTOMATICALLY,
    /** Something else, said in the resolution's text. */
    OTHER
}

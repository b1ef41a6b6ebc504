package dev.payments.reconciliation.domain.ledger;

/**
 * The ledger identity in money over the audited window (docs/reconciliation.md, "The identity in money"):
 * {@code pgApproved - pgRefunded = (ourPaid - ourRefunded) + incidents + inFlight + unmatched}. Each approval's net (what
 * the PG approved minus what it gave back of it) lands in exactly one term; a PAID, renewal or cancellation line only
 * when our books hold the same net for it (our succeeded refunds equal the PG's cancels). It holds when nothing is
 * unmatched.
 *
 * @param pgApproved  every APPROVE of the window
 * @param pgRefunded  every CANCEL of those approvals (partial refunds, full cancels)
 * @param ourPaid     what our payments matched PAID, renewal or cancellation were approved for
 * @param ourRefunded what we gave back of them: their succeeded refunds, or all of a cancelled one
 * @param incidents   the net of approvals an incident accounts for
 * @param inFlight    the net of approvals not settled yet (young, or a payment or refund being settled)
 * @param unmatched   the net of approvals nothing accounts for
 */
public record LedgerMoney(long pgApproved, long pgRefunded, long ourPaid, long ourRefunded, long incidents,
                          long inFlight, long unmatched) {

    public static final LedgerMoney NONE = new LedgerMoney(0, 0, 0, 0, 0, 0, 0);

    public boolean holds() {
        return unmatched == 0 && pgApproved - pgRefunded == ourPaid - ourRefunded + incidents + inFlight;
    }

    public String identity() {
        return pgApproved + " PG approved - " + pgRefunded + " PG refunded = " + ourPaid + " paid - " + ourRefunded
                + " refunded + " + incidents + " incidents + " + inFlight + " in flight + " + unmatched + " unmatched";
    }

    LedgerMoney plus(LedgerAudit.Match match, long approved, long pgBack, long ourAmount, long ourBack) {
        long net = approved - pgBack;
        return switch (match) {
            case PAID, RENEWAL, CANCELLATION -> new LedgerMoney(pgApproved + approved, pgRefunded + pgBack,
                    ourPaid + ourAmount, ourRefunded + ourBack, incidents, inFlight, unmatched);
            case INCIDENT -> new LedgerMoney(pgApproved + approved, pgRefunded + pgBack, ourPaid, ourRefunded,
                    incidents + net, inFlight, unmatched);
            case IN_FLIGHT -> new LedgerMoney(pgApproved + approved, pgRefunded + pgBack, ourPaid, ourRefunded,
                    incidents, inFlight + net, unmatched);
            case MISMATCH -> new LedgerMoney(pgApproved + approved, pgRefunded + pgBack, ourPaid, ourRefunded,
                    incidents, inFlight, unmatched + net);
        };
    }
}

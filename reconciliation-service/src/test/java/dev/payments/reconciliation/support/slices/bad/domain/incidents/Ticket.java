package dev.payments.reconciliation.support.slices.bad.domain.incidents;

import dev.payments.reconciliation.support.slices.bad.domain.settling.Attempt;

/** Planted: incidents -> settling, which incidents' line does not name, and with settling -> incidents a cycle. */
public record Ticket(String subject) {

    public static Ticket of(Attempt attempt) {
        return new Ticket(attempt.ticket().subject());
    }
}

package dev.payments.reconciliation.support.slices.bad.domain.settling;

import dev.payments.reconciliation.support.slices.bad.domain.incidents.Ticket;

/** settling -> incidents is allowed. */
public record Attempt(Ticket ticket) {
}

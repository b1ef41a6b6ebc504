package dev.payments.reconciliation.domain.projection;

/** A view after one event, and what the event did to it. */
public record Projected<V>(V view, ProjectionEffect effect) {
}

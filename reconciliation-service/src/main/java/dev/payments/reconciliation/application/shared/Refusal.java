package dev.payments.reconciliation.application.shared;

/** Why an operator's request was refused; the name is the stable {@code code} clients switch on (docs/problems.md). */
public enum Refusal {
    /** No incident has that id. */
    INCIDENT_NOT_FOUND,
    /** The incident is not in a state the change can start from (also when it changed while we were deciding). */
    ILLEGAL_INCIDENT_TRANSITION,
    /** The group (or topic) is not one of the configured consumers: the only ones an operator may act on. */
    UNKNOWN_CONSUMER_GROUP,
    /** Kafka moves a group's offsets only while it has no members. */
    CONSUMER_GROUP_ACTIVE,
    /** The timestamp lies beyond where the group stands: moving it would skip events, not replay them. */
    REPLAY_WOULD_SKIP_EVENTS,
    /** The group has no dead letter of that event or order. */
    DEAD_LETTER_NOT_FOUND
}

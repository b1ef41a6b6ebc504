package dev.payments.reconciliation.adapter.in.web;

/** The stable {@code code} of every problem+json this service returns; clients switch on it, never on the text. */
enum ProblemCode {
    PAYMENT_NOT_FOUND,
    ORDER_NOT_FOUND,
    SETTLEMENT_NOT_FOUND,
    INCIDENT_NOT_FOUND,
    ILLEGAL_INCIDENT_TRANSITION,
    PG_LISTING_FAILED,
    CONSUMER_GROUP_ACTIVE,
    REPLAY_WOULD_SKIP_EVENTS,
    UNKNOWN_CONSUMER_GROUP,
    DEAD_LETTER_NOT_FOUND,
    VALIDATION_FAILED,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    NOT_ACCEPTABLE,
    INTERNAL_ERROR
}

package dev.payments.reconciliation.adapter.in.web;

/** The stable {@code code} of every problem+json this service returns; clients switch on it, never on the text. */
enum ProblemCode {
    PAYMENT_NOT_FOUND,
    ORDER_NOT_FOUND,
    VALIDATION_FAILED,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    NOT_ACCEPTABLE,
    INTERNAL_ERROR
}

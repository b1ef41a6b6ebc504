package dev.payments.reconciliation.adapter.in.web;

/** An operator endpoint was called without a valid {@code X-Operator-Token}. */
class OperatorTokenRequiredException extends RuntimeException {

    OperatorTokenRequiredException() {
        super("This action needs a valid " + OperatorToken.HEADER);
    }
}

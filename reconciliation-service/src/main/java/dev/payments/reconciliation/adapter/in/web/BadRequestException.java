package dev.payments.reconciliation.adapter.in.web;

/** A request whose parameters do not make sense together (checked here, not by bean validation). */
class BadRequestException extends RuntimeException {

    BadRequestException(String message) {
        super(message);
    }
}

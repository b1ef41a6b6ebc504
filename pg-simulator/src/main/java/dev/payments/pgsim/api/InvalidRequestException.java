package dev.payments.pgsim.api;

/** A gateway request that fails validation; answered 400 INVALID_REQUEST with this message. */
final class InvalidRequestException extends RuntimeException {

    InvalidRequestException(String message) {
        super(message);
    }
}

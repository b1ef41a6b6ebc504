package dev.payments.pgsim.admin;

/** Bad admin input; answered 400 with this message. */
final class AdminInputException extends IllegalArgumentException {

    AdminInputException(String message, Throwable cause) {
        super(message, cause);
    }
}

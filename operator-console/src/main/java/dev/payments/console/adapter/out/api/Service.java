package dev.payments.console.adapter.out.api;

/** The services the console calls; each one checks the operator's token and scopes itself. */
public enum Service {
    RECONCILIATION,
    PAYMENT,
    NOTIFICATION,
    ORDER
}

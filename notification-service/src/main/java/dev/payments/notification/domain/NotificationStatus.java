package dev.payments.notification.domain;

/** Where delivery of a notification stands. */
public enum NotificationStatus {
    /** Stored, not yet tried. */
    PENDING,
    /** The delivery channel accepted it. Final. */
    SENT,
    /** The last attempt failed; retried later while attempts remain, otherwise given up for an operator. */
    FAILED
}

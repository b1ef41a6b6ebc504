package dev.payments.reconciliation.application.operations;

import java.util.UUID;

/** This service's own inbox (port): whether it has applied an event id. */
public interface AppliedEvents {

    boolean applied(UUID eventId);
}

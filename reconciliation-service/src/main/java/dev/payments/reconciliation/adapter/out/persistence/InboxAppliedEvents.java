package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.contracts.EventEnvelope;
import dev.payments.outbox.inbox.Inbox;
import dev.payments.reconciliation.application.operations.AppliedEvents;
import org.springframework.stereotype.Repository;

import java.util.UUID;

/** This service's inbox, through the outbox library (only the event id is looked at). */
@Repository
class InboxAppliedEvents implements AppliedEvents {

    private final Inbox inbox;

    InboxAppliedEvents(Inbox inbox) {
        this.inbox = inbox;
    }

    @Override
    public boolean applied(UUID eventId) {
        return inbox.hasApplied(new EventEnvelope(eventId, null, null, null, null, null, null));
    }
}

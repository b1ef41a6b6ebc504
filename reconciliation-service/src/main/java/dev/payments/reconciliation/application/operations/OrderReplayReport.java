package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.domain.shared.OrderId;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** What replaying one order's events would do, per event and per consumer group. */
public record OrderReplayReport(OrderId orderId, List<Event> events) {

    public OrderReplayReport {
        events = List.copyOf(events);
    }

    public record Event(String topic, int partition, long offset, Instant timestamp, UUID eventId, String type,
                        List<Consumer> consumers) {

        public Event {
            consumers = List.copyOf(consumers);
        }
    }

    /**
     * @param wouldApply whether a replay would make this consumer apply the event (anything else: it does nothing)
     */
    public record Consumer(String group, Verdict verdict, boolean wouldApply, String detail) {
    }

    /** Where one consumer group stands with one event. */
    public enum Verdict {
        /** Its inbox holds the event id (checked directly: this service's own inbox): a replay changes nothing. */
        ALREADY_APPLIED,
        /**
         * Its committed offset is past the record and the record is not on its dead-letter topic, so its inbox
         * holds the id (consumers commit only after the inbox transaction): a replay changes nothing.
         */
        CONSUMED,
        /** On its dead-letter topic: its effect never happened; a replay applies it now. */
        DEAD_LETTERED,
        /** Its committed offset has not reached the record yet: it will get it anyway (it lags). */
        NOT_YET_CONSUMED,
        /** It never committed on that partition: it reads from the start when it runs, so it will apply it. */
        NO_COMMITTED_OFFSET,
        /** This service passed the record without applying or dead-lettering it: a replay applies it. */
        MISSING_FROM_INBOX
    }
}

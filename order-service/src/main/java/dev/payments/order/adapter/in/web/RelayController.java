package dev.payments.order.adapter.in.web;

import dev.payments.contracts.Topics;
import dev.payments.outbox.relay.OutboxBacklog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.sql.SQLException;
import java.time.Instant;

/**
 * order-service's relay lag for an operator's overview (scope {@code orders:read}): the outbox rows not yet known to
 * be in Kafka ({@code order.events}) and when the oldest was written. Read from the database through the outbox
 * library's {@link OutboxBacklog}, so whichever replica answers knows it, not only the one running the relay; the
 * {@code outbox_unpublished_rows} gauge on the management port says the same for dashboards.
 */
@RestController
class RelayController {

    private static final Logger log = LoggerFactory.getLogger(RelayController.class);

    private final ObjectProvider<OutboxBacklog> backlog;

    RelayController(ObjectProvider<OutboxBacklog> backlog) {
        this.backlog = backlog;
    }

    /**
     * @param unpublished rows not yet known to be in Kafka; null when this replica cannot tell (relay off, database
     *                    unreachable), as payment-service's overview says it
     * @param oldest      when the oldest of them was written; absent when there are none
     */
    record Relay(String topic, Long unpublished, Instant oldest) {
    }

    @GetMapping("/api/outbox/backlog")
    Relay backlog() {
        OutboxBacklog outbox = backlog.getIfAvailable();
        if (outbox == null) {
            return new Relay(Topics.ORDER_EVENTS, null, null);
        }
        try {
            OutboxBacklog.Backlog measured = outbox.measure();
            return new Relay(Topics.ORDER_EVENTS, measured.rows(), measured.oldest());
        } catch (SQLException e) {
            log.warn("Could not measure the outbox backlog", e);
            return new Relay(Topics.ORDER_EVENTS, null, null);
        }
    }
}

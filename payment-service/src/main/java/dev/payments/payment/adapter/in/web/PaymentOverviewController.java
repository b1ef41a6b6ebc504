package dev.payments.payment.adapter.in.web;

import dev.payments.outbox.relay.OutboxBacklog;
import dev.payments.payment.application.SearchPayments;
import dev.payments.payment.application.renewal.RenewalRuns;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * What an operator's overview needs from payment-service (scope {@code payments:read}), read on request from this
 * service's own state, so any replica answers: the payments nobody has settled yet and since when, the approval
 * breaker as this replica sees it, the relay lag (the oldest outbox row not yet in Kafka) and renewal runs in
 * progress. The same figures are metrics on the management port for dashboards; this is the operator API.
 */
@RestController
class PaymentOverviewController {

    private static final Logger log = LoggerFactory.getLogger(PaymentOverviewController.class);

    private final SearchPayments searchPayments;
    private final CircuitBreakerRegistry breakers;
    private final ObjectProvider<OutboxBacklog> backlog;
    private final RenewalRuns renewalRuns;

    PaymentOverviewController(SearchPayments searchPayments, CircuitBreakerRegistry breakers,
                              ObjectProvider<OutboxBacklog> backlog, RenewalRuns renewalRuns) {
        this.searchPayments = searchPayments;
        this.breakers = breakers;
        this.backlog = backlog;
        this.renewalRuns = renewalRuns;
    }

    /** @param oldestRequestedAt absent when there are none */
    record NotFinal(String status, long count, Instant oldestRequestedAt) {
    }

    /**
     * @param unpublished rows not yet known to be in Kafka; null when this replica cannot tell (relay off, database
     *                    unreachable)
     * @param oldest      when the oldest of them was written; absent when there are none
     */
    record Relay(Long unpublished, Instant oldest) {
    }

    /**
     * @param approvalBreaker     {@code pg-approve} on this replica: CLOSED, OPEN, HALF_OPEN (each replica has its own)
     * @param reachabilityBreaker {@code pg-reachability}: OPEN when the PG refused or failed every recent attempt
     */
    record Overview(List<NotFinal> notFinal, String approvalBreaker, String reachabilityBreaker, Relay relay,
                    long renewalRunsInProgress) {
    }

    @GetMapping("/api/payments/overview")
    Overview overview() {
        return new Overview(
                searchPayments.notFinal().stream().map(n -> new NotFinal(n.status().name(), n.count(), n.oldestRequestedAt())).toList(),
                breakers.circuitBreaker("pg-approve").getState().name(),
                breakers.circuitBreaker("pg-reachability").getState().name(),
                relay(), renewalRuns.running());
    }

    private Relay relay() {
        OutboxBacklog outbox = backlog.getIfAvailable();
        if (outbox == null) {
            return new Relay(null, null);
        }
        try {
            OutboxBacklog.Backlog measured = outbox.measure();
            return new Relay(measured.rows(), measured.oldest());
        } catch (SQLException e) {
            log.warn("Could not measure the outbox backlog", e);
            return new Relay(null, null);
        }
    }
}

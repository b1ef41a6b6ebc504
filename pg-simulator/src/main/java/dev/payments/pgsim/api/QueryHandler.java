package dev.payments.pgsim.api;

import dev.payments.pgsim.fault.RequestPlan;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.ledger.Payment;
import dev.payments.pgsim.ledger.TransactionPage;
import dev.payments.pgsim.ledger.UnknownCursorException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Mono;

/** Status queries and the transaction listing: reads of the books, with the query faults applied. */
final class QueryHandler {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final Ledger ledger;
    private final Delays delays;

    QueryHandler(Ledger ledger, Delays delays) {
        this.ledger = ledger;
        this.delays = delays;
    }

    Mono<Outcome> byPaymentKey(String paymentKey, RequestPlan plan) {
        return delays.after(plan.latency(), () -> found(ledger.payment(paymentKey)));
    }

    Mono<Outcome> byOrderId(String orderId, RequestPlan plan) {
        return delays.after(plan.latency(), () -> found(ledger.paymentForOrder(orderId)));
    }

    Mono<Outcome> transactions(Map<String, List<String>> parameters, RequestPlan plan) {
        Instant from = instant(parameters, "from", Instant.EPOCH);
        Instant to = instant(parameters, "to", Instant.MAX);
        String startingAfter = single(parameters, "startingAfter");
        int limit = limit(single(parameters, "limit"));
        return delays.after(plan.latency(), () -> {
            try {
                TransactionPage page = ledger.transactions(from, to, startingAfter, limit);
                return Outcome.fresh(Reply.json(200, PaymentJson.of(page)));
            } catch (UnknownCursorException e) {
                return Outcome.plain(ApiError.INVALID_REQUEST.reply(e.getMessage()));
            }
        });
    }

    private static Outcome found(Optional<Payment> payment) {
        return payment
                .map(p -> Outcome.fresh(Reply.json(200, PaymentJson.of(p))))
                .orElseGet(() -> Outcome.plain(ApiError.NOT_FOUND_PAYMENT.reply()));
    }

    private static Instant instant(Map<String, List<String>> parameters, String name, Instant fallback) {
        String value = single(parameters, name);
        if (value == null) {
            return fallback;
        }
        try {
            return Timestamps.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(name + ": " + e.getMessage());
        }
    }

    private static int limit(String value) {
        if (value == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // Reported just below with the accepted range, which says more than the parser would.
        }
        throw new InvalidRequestException("limit must be an integer between 1 and " + MAX_LIMIT);
    }

    private static String single(Map<String, List<String>> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}

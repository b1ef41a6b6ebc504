package dev.payments.pgsim.api;

import dev.payments.pgsim.fault.RequestPlan;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.ledger.CancelResult;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.stats.Stats;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/payments/{paymentKey}/cancel} as Toss has it: {@code cancelAmount} absent cancels everything left,
 * present cancels that much (a partial cancel) if it is left. A repeat of an Idempotency-Key is answered with the cancel
 * it booked. While one cancel of a payment is processed (its latency included) another is refused with
 * FORBIDDEN_CONSECUTIVE_REQUEST and booked nothing; a repeat of the same key then is IDEMPOTENT_REQUEST_PROCESSING.
 */
final class CancelHandler {

    private final Ledger ledger;
    private final Stats stats;
    private final Delays delays;

    CancelHandler(Ledger ledger, Stats stats, Delays delays) {
        this.ledger = ledger;
        this.stats = stats;
        this.delays = delays;
    }

    Mono<Outcome> cancel(String paymentKey, String idempotencyKey, byte[] body, RequestPlan plan) {
        Requests.requireKey("paymentKey", paymentKey);
        Requests.CancelRequest request = Requests.cancel(body);
        String key = Requests.idempotencyKey(idempotencyKey);
        Optional<String> busy = ledger.beginCancel(paymentKey, key);
        if (busy.isPresent()) {
            boolean sameKey = key != null && key.equals(busy.get());
            return Mono.just(Outcome.plain(sameKey ? ApiError.IDEMPOTENT_REQUEST_PROCESSING.reply()
                    : ApiError.FORBIDDEN_CONSECUTIVE_REQUEST.reply("Another cancel of " + paymentKey
                    + " is being processed.")));
        }
        return delays.after(plan.latency(), () -> book(paymentKey, key, request))
                .doFinally(signal -> ledger.endCancel(paymentKey));
    }

    private Outcome book(String paymentKey, String key, Requests.CancelRequest request) {
        CancelResult result = ledger.cancel(paymentKey, request.cancelReason(), request.cancelAmount(), key);
        if (result instanceof CancelResult.Canceled canceled) {
            stats.cancels.increment();
            return Outcome.fresh(Reply.json(200, PaymentJson.of(canceled.payment())));
        }
        if (result instanceof CancelResult.AlreadyCanceled already) {
            return Outcome.fresh(Reply.json(200, PaymentJson.of(already.payment())));
        }
        if (result instanceof CancelResult.NothingLeft) {
            return Outcome.plain(ApiError.ALREADY_CANCELED_PAYMENT.reply());
        }
        if (result instanceof CancelResult.AmountNotCancelable refused) {
            return Outcome.plain(ApiError.NOT_CANCELABLE_AMOUNT.reply(
                    refused.requested() + " asked, " + refused.payment().balanceAmount() + " left to cancel."));
        }
        if (result instanceof CancelResult.KeyReused) {
            return Outcome.plain(ApiError.INVALID_IDEMPOTENCY_KEY.reply());
        }
        if (result instanceof CancelResult.NotCancelable notCancelable) {
            return Outcome.plain(ApiError.NOT_CANCELABLE_PAYMENT.reply(
                    "It is " + notCancelable.payment().status() + "; only DONE payments can be cancelled."));
        }
        return Outcome.plain(ApiError.NOT_FOUND_PAYMENT.reply());
    }
}

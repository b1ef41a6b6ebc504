package dev.payments.pgsim.api;

import dev.payments.pgsim.fault.RequestPlan;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.ledger.CancelResult;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.ledger.PaymentStatus;
import dev.payments.pgsim.stats.Stats;
import reactor.core.publisher.Mono;

/** {@code POST /v1/payments/{paymentKey}/cancel}: full cancel, idempotent per payment. */
final class CancelHandler {

    private final Ledger ledger;
    private final Stats stats;
    private final Delays delays;

    CancelHandler(Ledger ledger, Stats stats, Delays delays) {
        this.ledger = ledger;
        this.stats = stats;
        this.delays = delays;
    }

    Mono<Outcome> cancel(String paymentKey, byte[] body, RequestPlan plan) {
        Requests.requireKey("paymentKey", paymentKey);
        Requests.CancelRequest request = Requests.cancel(body);
        return delays.after(plan.latency(), () -> {
            if (isPartial(paymentKey, request.cancelAmount())) {
                return Outcome.plain(ApiError.INVALID_REQUEST.reply(
                        "Partial cancels are not supported; omit cancelAmount or send the whole balance."));
            }
            CancelResult result = ledger.cancel(paymentKey, request.cancelReason());
            if (result instanceof CancelResult.Canceled canceled) {
                stats.cancels.increment();
                return Outcome.fresh(Reply.json(200, PaymentJson.of(canceled.payment())));
            }
            if (result instanceof CancelResult.AlreadyCanceled already) {
                return Outcome.fresh(Reply.json(200, PaymentJson.of(already.payment())));
            }
            if (result instanceof CancelResult.NotCancelable notCancelable) {
                return Outcome.plain(ApiError.NOT_CANCELABLE_PAYMENT.reply(
                        "It is " + notCancelable.payment().status() + "; only DONE payments can be cancelled."));
            }
            return Outcome.plain(ApiError.NOT_FOUND_PAYMENT.reply());
        });
    }

    private boolean isPartial(String paymentKey, Long cancelAmount) {
        return cancelAmount != null && ledger.payment(paymentKey)
                .filter(p -> p.status() == PaymentStatus.DONE && p.balanceAmount() != cancelAmount)
                .isPresent();
    }
}

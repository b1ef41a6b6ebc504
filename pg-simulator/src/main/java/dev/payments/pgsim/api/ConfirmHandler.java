package dev.payments.pgsim.api;

import dev.payments.pgsim.fault.RequestPlan;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.idempotency.IdempotencyStore;
import dev.payments.pgsim.ledger.BillingKeys;
import dev.payments.pgsim.ledger.ConfirmStart;
import dev.payments.pgsim.ledger.DeclineReason;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.ledger.Payment;
import dev.payments.pgsim.stats.Stats;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/payments/confirm}. The payment is booked IN_PROGRESS when the request arrives,
 * then after the latency it is approved, declined, or (async mode) left IN_PROGRESS for later.
 */
final class ConfirmHandler {

    private final Ledger ledger;
    private final IdempotencyStore idempotency;
    private final Stats stats;
    private final Delays delays;
    private final AsyncCompletions async;
    private final BillingKeys billingKeys;

    ConfirmHandler(Ledger ledger, IdempotencyStore idempotency, Stats stats, Delays delays, AsyncCompletions async,
                   BillingKeys billingKeys) {
        this.billingKeys = billingKeys;
        this.ledger = ledger;
        this.idempotency = idempotency;
        this.stats = stats;
        this.delays = delays;
        this.async = async;
    }

    Mono<Outcome> confirm(String idempotencyKeyHeader, byte[] body, RequestPlan plan) {
        Requests.ConfirmRequest request = Requests.confirm(body);
        return confirm(Requests.idempotencyKey(idempotencyKeyHeader), request, request.fingerprint(), plan);
    }

    /**
     * {@code POST /v1/billing/{billingKey}}: a charge of a registered card is a confirm the PG starts itself, so it
     * runs exactly the confirm's path (faults, Idempotency-Key, latency, declines, async, late booking) under a
     * paymentKey the PG derives from the orderId.
     */
    Mono<Outcome> chargeBillingKey(String idempotencyKeyHeader, String billingKey, byte[] body, RequestPlan plan) {
        Requests.BillingChargeRequest charge = Requests.billingCharge(body);
        String key = Requests.idempotencyKey(idempotencyKeyHeader);
        if (billingKeys.find(billingKey, charge.customerKey()).isEmpty()) {
            return delays.after(plan.latency(), () -> Outcome.plain(ApiError.NOT_FOUND_BILLING_KEY.reply()));
        }
        Requests.ConfirmRequest request = new Requests.ConfirmRequest(BillingKeys.chargePaymentKey(charge.orderId()),
                charge.orderId(), charge.amount());
        return confirm(key, request, charge.fingerprint(billingKey), plan);
    }

    private Mono<Outcome> confirm(String key, Requests.ConfirmRequest request, String fingerprint, RequestPlan plan) {
        if (plan.lateBooking().isPresent()) {
            // The front door took it and says nothing; the back end books it once the client has given up.
            return Mono.just(Outcome.held(() -> async.bookLate(request.paymentKey(), request.orderId(),
                    Math.max(1, request.amount() + plan.amountDelta()), plan.lateBooking().get())));
        }
        if (key == null) {
            return process(request, plan).map(Outcome::fresh);
        }
        return idempotency.execute(key, fingerprint, () -> process(request, plan))
                .flatMap(result -> {
                    if (result instanceof IdempotencyStore.Result.Fresh fresh) {
                        return Mono.just(Outcome.fresh(fresh.reply()));
                    }
                    if (result instanceof IdempotencyStore.Result.Replayed replayed) {
                        stats.idempotentReplays.increment();
                        return delays.after(plan.latency(), () -> Outcome.plain(replayed.reply()));
                    }
                    return delays.after(plan.latency(), () -> Outcome.plain(ApiError.INVALID_IDEMPOTENCY_KEY.reply()));
                });
    }

    private Mono<Reply> process(Requests.ConfirmRequest request, RequestPlan plan) {
        // amountDelta: the PG charges what it thinks it was asked, not what we asked.
        ConfirmStart start = ledger.beginConfirm(request.paymentKey(), request.orderId(),
                Math.max(1, request.amount() + plan.amountDelta()));
        if (start instanceof ConfirmStart.Refused refused) {
            ApiError error = ApiError.valueOf(refused.refusal().name());
            return delays.after(plan.latency(), () -> error.reply(refused.message()));
        }
        Payment started = ((ConfirmStart.Started) start).payment();
        return delays.after(plan.latency(), () -> complete(started, plan));
    }

    private Reply complete(Payment started, RequestPlan plan) {
        if (plan.decline().isPresent()) {
            DeclineReason reason = plan.decline().get();
            return ledger.abort(started.paymentKey(), reason)
                    .map(aborted -> {
                        stats.declines.increment();
                        return Reply.error(reason.httpStatus(), reason.name(), reason.message());
                    })
                    .orElseGet(ConfirmHandler::vanished);
        }
        if (plan.async().isPresent()) {
            stats.asyncAccepted.increment();
            async.schedule(started, plan.async().get());
            return Reply.json(200, PaymentJson.of(started));
        }
        return ledger.approve(started.paymentKey())
                .map(done -> {
                    stats.approvals.increment();
                    return Reply.json(200, PaymentJson.of(done));
                })
                .orElseGet(ConfirmHandler::vanished);
    }

    private static Reply vanished() {
        return ApiError.NOT_FOUND_PAYMENT.reply("The ledger was reset while the confirm was in progress.");
    }
}

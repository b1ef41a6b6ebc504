package dev.payments.pgsim.api;

import dev.payments.pgsim.callback.CallbackSender;
import dev.payments.pgsim.fault.Faults;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.http.Routes;
import dev.payments.pgsim.idempotency.IdempotencyStore;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.ledger.BillingKeys;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.stats.Stats;
import java.time.Clock;
import java.util.function.BiFunction;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

/** Routes the Toss-v1-shaped endpoints; unknown paths and methods are answered without faults. */
public final class GatewayRouter implements BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> {

    /** The collaborators the gateway needs, wired by {@link dev.payments.pgsim.PgSimulator}. */
    public record Dependencies(
            Ledger ledger,
            IdempotencyStore idempotency,
            Faults faults,
            Stats stats,
            String secretKey,
            CallbackSender callbacks,
            String defaultCallbackUrl,
            Scheduler timer,
            Mono<Void> closed,
            Clock clock,
            BillingKeys billingKeys) {
    }

    private final Stats stats;
    private final Delays delays;
    private final FaultPipeline pipeline;
    private final ConfirmHandler confirm;
    private final QueryHandler query;
    private final CancelHandler cancel;
    private final BillingKeys billingKeys;
    private final HttpServerRoutes routes;

    public GatewayRouter(Dependencies d) {
        this.delays = new Delays(d.timer());
        AsyncCompletions async = new AsyncCompletions(d.ledger(), d.stats(), d.callbacks(), d.defaultCallbackUrl(), delays,
                d.closed(), d.clock());
        this.stats = d.stats();
        this.pipeline = new FaultPipeline(d.faults(), d.stats(), new BasicAuth(d.secretKey()), delays);
        this.billingKeys = d.billingKeys();
        this.confirm = new ConfirmHandler(d.ledger(), d.idempotency(), d.stats(), delays, async, d.billingKeys());
        this.query = new QueryHandler(d.ledger(), delays);
        this.cancel = new CancelHandler(d.ledger(), d.stats(), delays);
        // The fixed paths before the templates they would also match (/v1/payments/{paymentKey}).
        this.routes = new Routes()
                .post("/v1/payments/confirm", this::confirm)
                .get("/v1/payments/orders/{orderId}", this::queryByOrderId)
                .post("/v1/payments/{paymentKey}/cancel", this::cancel)
                .get("/v1/payments/{paymentKey}", this::queryByPaymentKey)
                .get("/v1/transactions", this::transactions)
                .post("/v1/billing/authorizations/issue", this::issueBillingKey)
                .post("/v1/billing/{billingKey}", this::chargeBillingKey)
                .build(ApiError.METHOD_NOT_ALLOWED.reply(), request -> ApiError.NOT_FOUND.reply());
    }

    @Override
    public Publisher<Void> apply(HttpServerRequest request, HttpServerResponse response) {
        return routes.apply(request, response);
    }

    private Mono<Void> confirm(HttpServerRequest request, HttpServerResponse response) {
        stats.confirmsReceived.increment();
        String key = request.requestHeaders().get("Idempotency-Key");
        return pipeline.serve(Operation.CONFIRM, request, response, (body, plan) -> confirm.confirm(key, body, plan));
    }

    private Mono<Void> chargeBillingKey(HttpServerRequest request, HttpServerResponse response) {
        stats.confirmsReceived.increment();
        String key = request.requestHeaders().get("Idempotency-Key");
        // The same fault scope as confirm: to the PG a billing charge is a confirm it starts itself.
        return pipeline.serve(Operation.CONFIRM, request, response,
                (body, plan) -> confirm.chargeBillingKey(key, Routes.param(request, "billingKey"), body, plan));
    }

    /** Registers a card for automatic payments; moves no money, so it is faulted like a query. */
    private Mono<Void> issueBillingKey(HttpServerRequest request, HttpServerResponse response) {
        return pipeline.serve(Operation.QUERY, request, response, (body, plan) -> {
            Requests.BillingIssueRequest issue = Requests.billingIssue(body);
            BillingKeys.BillingKey issued = billingKeys.issue(issue.customerKey());
            return delays.after(plan.latency(), () -> Outcome.fresh(Reply.json(200, PaymentJson.of(issued))));
        });
    }

    private Mono<Void> queryByOrderId(HttpServerRequest request, HttpServerResponse response) {
        stats.queries.increment();
        return pipeline.serve(Operation.QUERY, request, response,
                (body, plan) -> query.byOrderId(Routes.param(request, "orderId"), plan));
    }

    private Mono<Void> queryByPaymentKey(HttpServerRequest request, HttpServerResponse response) {
        stats.queries.increment();
        return pipeline.serve(Operation.QUERY, request, response,
                (body, plan) -> query.byPaymentKey(Routes.param(request, "paymentKey"), plan));
    }

    private Mono<Void> transactions(HttpServerRequest request, HttpServerResponse response) {
        stats.queries.increment();
        return pipeline.serve(Operation.QUERY, request, response,
                (body, plan) -> query.transactions(Routes.query(request), plan));
    }

    private Mono<Void> cancel(HttpServerRequest request, HttpServerResponse response) {
        String key = request.requestHeaders().get("Idempotency-Key");
        return pipeline.serve(Operation.CANCEL, request, response,
                (body, plan) -> cancel.cancel(Routes.param(request, "paymentKey"), key, body, plan));
    }
}

package dev.payments.pgsim.api;

import dev.payments.pgsim.callback.CallbackSender;
import dev.payments.pgsim.fault.Faults;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.http.Exchanges;
import dev.payments.pgsim.idempotency.IdempotencyStore;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.stats.Stats;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.time.Clock;
import java.util.Arrays;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/** Routes the Toss-v1-shaped endpoints; unknown paths are answered without faults. */
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
            Clock clock) {
    }

    private final Stats stats;
    private final FaultPipeline pipeline;
    private final ConfirmHandler confirm;
    private final QueryHandler query;
    private final CancelHandler cancel;

    public GatewayRouter(Dependencies d) {
        Delays delays = new Delays(d.timer());
        AsyncCompletions async = new AsyncCompletions(d.ledger(), d.stats(), d.callbacks(), d.defaultCallbackUrl(), delays,
                d.closed(), d.clock());
        this.stats = d.stats();
        this.pipeline = new FaultPipeline(d.faults(), d.stats(), new BasicAuth(d.secretKey()), delays);
        this.confirm = new ConfirmHandler(d.ledger(), d.idempotency(), d.stats(), delays, async);
        this.query = new QueryHandler(d.ledger(), delays);
        this.cancel = new CancelHandler(d.ledger(), d.stats(), delays);
    }

    @Override
    public Publisher<Void> apply(HttpServerRequest request, HttpServerResponse response) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String[] path = Arrays.stream(uri.path().split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
        HttpMethod method = request.method();
        if (path.length < 2 || !path[0].equals("v1")) {
            return Exchanges.send(response, ApiError.NOT_FOUND.reply());
        }
        if (path.length == 2 && path[1].equals("transactions")) {
            return get(method, response, () -> {
                stats.queries.increment();
                return pipeline.serve(Operation.QUERY, request, response,
                        (body, plan) -> query.transactions(uri.parameters(), plan));
            });
        }
        if (!path[1].equals("payments") || path.length < 3 || path.length > 4) {
            return Exchanges.send(response, ApiError.NOT_FOUND.reply());
        }
        if (path.length == 3 && path[2].equals("confirm")) {
            return post(method, response, () -> {
                stats.confirmsReceived.increment();
                String key = request.requestHeaders().get("Idempotency-Key");
                return pipeline.serve(Operation.CONFIRM, request, response,
                        (body, plan) -> confirm.confirm(key, body, plan));
            });
        }
        if (path.length == 3) {
            return get(method, response, () -> {
                stats.queries.increment();
                return pipeline.serve(Operation.QUERY, request, response,
                        (body, plan) -> query.byPaymentKey(path[2], plan));
            });
        }
        if (path[2].equals("orders")) {
            return get(method, response, () -> {
                stats.queries.increment();
                return pipeline.serve(Operation.QUERY, request, response,
                        (body, plan) -> query.byOrderId(path[3], plan));
            });
        }
        if (path[3].equals("cancel")) {
            return post(method, response, () -> pipeline.serve(Operation.CANCEL, request, response,
                    (body, plan) -> cancel.cancel(path[2], body, plan)));
        }
        return Exchanges.send(response, ApiError.NOT_FOUND.reply());
    }

    private static Publisher<Void> get(HttpMethod method, HttpServerResponse response,
            Supplier<Mono<Void>> handler) {
        return method.equals(HttpMethod.GET) ? handler.get() : Exchanges.send(response, ApiError.METHOD_NOT_ALLOWED.reply());
    }

    private static Publisher<Void> post(HttpMethod method, HttpServerResponse response,
            Supplier<Mono<Void>> handler) {
        return method.equals(HttpMethod.POST) ? handler.get() : Exchanges.send(response, ApiError.METHOD_NOT_ALLOWED.reply());
    }
}

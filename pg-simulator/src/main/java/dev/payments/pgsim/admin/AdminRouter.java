package dev.payments.pgsim.admin;

import dev.payments.pgsim.api.PaymentJson;
import dev.payments.pgsim.fault.FaultControl;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.http.Exchanges;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.idempotency.IdempotencyStore;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.stats.Stats;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * {@code /admin/*}: faults (GET, PUT/POST, DELETE), stats, resets and checkout sessions. Admin
 * calls are never subject to faults.
 */
public final class AdminRouter implements BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> {

    private static final Logger log = LoggerFactory.getLogger(AdminRouter.class);
    private static final byte[] NO_BODY = new byte[0];

    private final FaultControl faults;
    private final Ledger ledger;
    private final IdempotencyStore idempotency;
    private final Stats stats;

    public AdminRouter(FaultControl faults, Ledger ledger, IdempotencyStore idempotency, Stats stats) {
        this.faults = faults;
        this.ledger = ledger;
        this.idempotency = idempotency;
        this.stats = stats;
    }

    /** {@code GET /admin/faults}: what is installed, with effective seeds. */
    record FaultsView(List<FaultSpec> faults, boolean refusingConnections) {
    }

    /** {@code POST /admin/payments}: a checkout session, READY until confirmed or expired. */
    record ReadyPaymentRequest(String paymentKey, String orderId, Long amount) {
    }

    @Override
    public Publisher<Void> apply(HttpServerRequest request, HttpServerResponse response) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path().replaceAll("/+$", "");
        HttpMethod method = request.method();
        Mono<Reply> reply = switch (path) {
            case "/admin/faults" -> {
                if (method.equals(HttpMethod.GET)) {
                    yield Mono.fromSupplier(this::faultsViewReply);
                }
                if (method.equals(HttpMethod.PUT) || method.equals(HttpMethod.POST)) {
                    yield withBody(request, body -> {
                        List<FaultSpec> specs = AdminJson.faults(body).stream().map(FaultRequest::toSpec).toList();
                        return faults.apply(specs).then(Mono.fromSupplier(this::faultsViewReply));
                    });
                }
                if (method.equals(HttpMethod.DELETE)) {
                    List<String> operation = uri.parameters().get("operation");
                    yield Mono.defer(() -> faults.clear(operation == null ? null : Operation.fromWire(operation.get(0))))
                            .then(Mono.fromSupplier(this::faultsViewReply));
                }
                yield methodNotAllowed();
            }
            case "/admin/stats" -> method.equals(HttpMethod.GET)
                    ? Mono.fromSupplier(() -> Reply.json(200, stats.snapshot()))
                    : methodNotAllowed();
            case "/admin/reset" -> method.equals(HttpMethod.POST)
                    ? faults.clear(null).then(Mono.fromSupplier(() -> {
                        resetLedger();
                        stats.reset();
                        return Reply.noContent();
                    }))
                    : methodNotAllowed();
            case "/admin/ledger" -> method.equals(HttpMethod.DELETE)
                    ? Mono.fromSupplier(() -> {
                        resetLedger();
                        return Reply.noContent();
                    })
                    : methodNotAllowed();
            case "/admin/payments" -> method.equals(HttpMethod.POST)
                    ? withBody(request, body -> Mono.fromSupplier(() -> registerReady(body)))
                    : methodNotAllowed();
            case "/admin/health" -> Mono.just(Reply.json(200, Map.of("status", "UP")));
            default -> Mono.just(Reply.error(404, "NOT_FOUND", "No such admin endpoint: " + path));
        };
        return reply
                .onErrorResume(AdminInputException.class, e -> Mono.just(badRequest(e.getMessage())))
                .onErrorResume(IllegalArgumentException.class, e -> Mono.just(badRequest(e.getMessage())))
                .onErrorResume(IllegalStateException.class, e -> Mono.just(Reply.error(409, "CONFLICT", e.getMessage())))
                .onErrorResume(e -> {
                    log.error("admin request {} {} failed", method, request.uri(), e);
                    return Mono.just(Reply.error(500, "INTERNAL_ERROR", String.valueOf(e.getMessage())));
                })
                .flatMap(r -> Exchanges.send(response, r));
    }

    private FaultsView faultsView() {
        return new FaultsView(faults.current(), faults.refusingConnections());
    }

    private Reply faultsViewReply() {
        return Reply.json(200, faultsView());
    }

    private Reply registerReady(byte[] body) {
        ReadyPaymentRequest ready = AdminJson.read(body, ReadyPaymentRequest.class);
        if (ready.paymentKey() == null || ready.orderId() == null || ready.amount() == null || ready.amount() <= 0) {
            throw new IllegalArgumentException("paymentKey, orderId and a positive amount are required");
        }
        return Reply.json(201, PaymentJson.of(ledger.registerReady(ready.paymentKey(), ready.orderId(), ready.amount())));
    }

    private void resetLedger() {
        ledger.reset();
        idempotency.reset();
    }

    private static Mono<Reply> withBody(HttpServerRequest request, Function<byte[], Mono<Reply>> handler) {
        return request.receive().aggregate().asByteArray().defaultIfEmpty(NO_BODY).flatMap(handler);
    }

    private static Mono<Reply> methodNotAllowed() {
        return Mono.just(Reply.error(405, "METHOD_NOT_ALLOWED", "Method not allowed here."));
    }

    private static Reply badRequest(String message) {
        return Reply.error(400, "INVALID_REQUEST", message);
    }
}

package dev.payments.pgsim.admin;

import dev.payments.pgsim.fault.FaultControl;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.http.Exchanges;
import dev.payments.pgsim.http.Reply;
import dev.payments.pgsim.http.Routes;
import dev.payments.pgsim.idempotency.IdempotencyStore;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.stats.Stats;
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
import reactor.netty.http.server.HttpServerRoutes;

/**
 * {@code /admin/*}: faults (GET, PUT/POST, DELETE), stats, the reset and health. Admin
 * calls are never subject to faults.
 */
public final class AdminRouter implements BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> {

    private static final Logger log = LoggerFactory.getLogger(AdminRouter.class);
    private static final byte[] NO_BODY = new byte[0];

    private final FaultControl faults;
    private final HttpServerRoutes routes;

    public AdminRouter(FaultControl faults, Ledger ledger, IdempotencyStore idempotency, Stats stats) {
        this.faults = faults;
        this.routes = new Routes()
                .get("/admin/faults", answer(request -> Mono.fromSupplier(this::faultsViewReply)))
                .put("/admin/faults", answer(this::applyFaults))
                .post("/admin/faults", answer(this::applyFaults))
                .delete("/admin/faults", answer(this::clearFaults))
                .get("/admin/stats", answer(request -> Mono.fromSupplier(() -> Reply.json(200, stats.snapshot()))))
                .post("/admin/reset", answer(request -> faults.clear(null).then(Mono.fromSupplier(() -> {
                    ledger.reset();
                    idempotency.reset();
                    stats.reset();
                    return Reply.noContent();
                }))))
                .any("/admin/health", answer(request -> Mono.just(Reply.json(200, Map.of("status", "UP")))))
                .build(Reply.error(405, "METHOD_NOT_ALLOWED", "Method not allowed here."),
                        request -> Reply.error(404, "NOT_FOUND", "No such admin endpoint: " + Routes.path(request)));
    }

    /** {@code GET /admin/faults}: what is installed, with effective seeds. */
    record FaultsView(List<FaultSpec> faults, boolean refusingConnections) {
    }

    @Override
    public Publisher<Void> apply(HttpServerRequest request, HttpServerResponse response) {
        return routes.apply(request, response);
    }

    private Mono<Reply> applyFaults(HttpServerRequest request) {
        return withBody(request, body -> {
            List<FaultSpec> specs = AdminJson.faultSpecs(body);
            return faults.apply(specs).then(Mono.fromSupplier(this::faultsViewReply));
        });
    }

    private Mono<Reply> clearFaults(HttpServerRequest request) {
        List<String> operation = Routes.query(request).get("operation");
        return faults.clear(operation == null ? null : Operation.fromWire(operation.get(0)))
                .then(Mono.fromSupplier(this::faultsViewReply));
    }

    /** An admin answer: bad input is a 400, anything else a logged 500. */
    private static Routes.Handler answer(Function<HttpServerRequest, Mono<Reply>> handler) {
        return (request, response) -> Mono.defer(() -> handler.apply(request))
                .onErrorResume(IllegalArgumentException.class, e -> Mono.just(badRequest(e.getMessage())))
                .onErrorResume(e -> {
                    log.error("admin request {} {} failed", request.method(), request.uri(), e);
                    return Mono.just(Reply.error(500, "INTERNAL_ERROR", String.valueOf(e.getMessage())));
                })
                .flatMap(reply -> Exchanges.sendOnEventLoop(response, reply));
    }

    private FaultsView faultsView() {
        return new FaultsView(faults.current(), faults.refusingConnections());
    }

    private Reply faultsViewReply() {
        return Reply.json(200, faultsView());
    }

    private static Mono<Reply> withBody(HttpServerRequest request, Function<byte[], Mono<Reply>> handler) {
        return request.receive().aggregate().asByteArray().defaultIfEmpty(NO_BODY).flatMap(handler);
    }

    private static Reply badRequest(String message) {
        return Reply.error(400, "INVALID_REQUEST", message);
    }
}

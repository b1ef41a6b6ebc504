package dev.payments.pgsim.api;

import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.Faults;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.fault.RequestPlan;
import dev.payments.pgsim.http.Exchanges;
import dev.payments.pgsim.stats.Stats;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Applies the request's fault plan around the operation's work, in the order documented on
 * {@link dev.payments.pgsim.fault.FaultSpec}: connection reset, hang, auth, injected error, work, lost answer.
 */
final class FaultPipeline {

    private static final Logger log = LoggerFactory.getLogger(FaultPipeline.class);
    private static final byte[] NO_BODY = new byte[0];

    /** The operation itself: given the body and the plan, the answer (latency included). */
    interface Work extends BiFunction<byte[], RequestPlan, Mono<Outcome>> {
    }

    private final Faults faults;
    private final Stats stats;
    private final BasicAuth auth;
    private final Delays delays;

    FaultPipeline(Faults faults, Stats stats, BasicAuth auth, Delays delays) {
        this.faults = faults;
        this.stats = stats;
        this.auth = auth;
        this.delays = delays;
    }

    Mono<Void> serve(Operation operation, HttpServerRequest request, HttpServerResponse response, Work work) {
        stats.inFlight.incrementAndGet();
        RequestPlan plan = faults.forOperation(operation).plan();
        Mono<Void> exchange;
        if (plan.resetConnection()) {
            stats.connectionResets.increment();
            exchange = Exchanges.reset(request);
        } else if (plan.hang()) {
            stats.hangs.increment();
            exchange = Exchanges.hold(request, plan.released());
        } else {
            exchange = request.receive().aggregate().asByteArray()
                    .defaultIfEmpty(NO_BODY)
                    .flatMap(body -> answer(operation, request, body, plan, work))
                    .flatMap(outcome -> deliver(request, response, outcome, plan));
        }
        return exchange.doFinally(signal -> stats.inFlight.decrementAndGet());
    }

    private Mono<Outcome> answer(Operation operation, HttpServerRequest request, byte[] body, RequestPlan plan,
                                 Work work) {
        if (!auth.accepts(request.requestHeaders().get(HttpHeaderNames.AUTHORIZATION))) {
            return Mono.just(Outcome.plain(ApiError.UNAUTHORIZED_KEY.reply()));
        }
        if (plan.serverError().isPresent()) {
            int status = plan.serverError().getAsInt();
            ApiError error = ApiError.injected(status, operation);
            if (status == 409 && operation != Operation.CANCEL) {
                // "Still processing this key": the PG has the confirm and goes on with it, whatever the client does.
                stats.clientErrors.increment();
                detached(Mono.defer(() -> work.apply(body, plan)));
                return Mono.just(Outcome.plain(error.reply()));
            }
            // Any other injected error happens before any work: nothing is booked, so a retry is safe.
            (status >= 500 ? stats.serverErrors : stats.clientErrors).increment();
            return delays.after(plan.latency(), () -> Outcome.plain(error.reply()));
        }
        return detached(Mono.defer(() -> work.apply(body, plan)))
                .onErrorResume(InvalidRequestException.class,
                        e -> Mono.just(Outcome.plain(ApiError.INVALID_REQUEST.reply(e.getMessage()))))
                .onErrorResume(e -> {
                    log.error("gateway request {} {} failed", request.method(), request.uri(), e);
                    return Mono.just(Outcome.plain(ApiError.FAILED_INTERNAL_SYSTEM_PROCESSING.reply()));
                });
    }

    /**
     * Runs the work to the end even if the client gives up: a real PG keeps processing a confirm
     * whose caller timed out, which is exactly how "money moved but we don't know" happens.
     */
    private static Mono<Outcome> detached(Mono<Outcome> work) {
        Sinks.One<Outcome> result = Sinks.one();
        work.subscribe(result::tryEmitValue, result::tryEmitError, result::tryEmitEmpty);
        return result.asMono();
    }

    private Mono<Void> deliver(HttpServerRequest request, HttpServerResponse response, Outcome outcome, RequestPlan plan) {
        if (outcome.isHeld()) {
            return Exchanges.hold(request, plan.released()).then(Mono.fromRunnable(outcome.afterClientGaveUp()));
        }
        if (outcome.fresh() && outcome.reply().isSuccess() && plan.dropAnswer()) {
            stats.droppedResponses.increment();
            return plan.dropMode() == DropMode.RESET
                    ? Exchanges.reset(request)
                    : Exchanges.hold(request, plan.released());
        }
        return Exchanges.send(response, outcome.reply());
    }
}

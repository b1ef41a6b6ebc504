package dev.payments.pgsim.callback;

import dev.payments.pgsim.stats.Stats;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.util.retry.Retry;

/**
 * POSTs signed callbacks with bounded exponential backoff. A non-2xx answer, a timeout and a
 * connection failure all count as "not delivered"; each attempt is signed with a fresh timestamp
 * so a retry is not rejected as stale. The event id stays the same across attempts so the
 * receiver can deduplicate.
 */
public final class CallbackSender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CallbackSender.class);

    private final CallbackSettings settings;
    private final Stats stats;
    private final Clock clock;
    private final ConnectionProvider connections = ConnectionProvider.create("pgsim-callbacks", 64);
    private final HttpClient client;
    /** Completes on close, cancelling deliveries still waiting for a retry. */
    private final Sinks.Empty<Void> closed = Sinks.empty();

    public CallbackSender(CallbackSettings settings, LoopResources loops, Stats stats, Clock clock) {
        this.settings = settings;
        this.stats = stats;
        this.clock = clock;
        this.client = HttpClient.create(connections)
                .runOn(loops)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.timeout().toMillis())
                .responseTimeout(settings.timeout());
    }

    /** Delivers in the background; the outcome shows in the stats and the log. */
    public void send(String url, String body) {
        String eventId = UUID.randomUUID().toString();
        Mono<Integer> attempt = Mono.defer(() -> post(url, eventId, body))
                .flatMap(status -> status >= 200 && status < 300
                        ? Mono.just(status)
                        : Mono.error(new CallbackRejectedException(url, status)));
        attempt.retryWhen(Retry.backoff(settings.maxAttempts() - 1L, settings.initialBackoff()).jitter(0.0))
                .takeUntilOther(closed.asMono())
                .subscribe(
                        status -> stats.callbacksSent.increment(),
                        error -> {
                            stats.callbacksFailed.increment();
                            log.warn("callback {} to {} given up after {} attempts", eventId, url, settings.maxAttempts(),
                                    error);
                        });
    }

    private Mono<Integer> post(String url, String eventId, String body) {
        stats.callbackAttempts.increment();
        long timestamp = clock.instant().getEpochSecond();
        String signature = CallbackSignature.sign(settings.secret(), timestamp, body);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return client
                .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .set(HttpHeaderNames.CONTENT_LENGTH, bytes.length)
                        .set(CallbackSignature.TIMESTAMP_HEADER, timestamp)
                        .set(CallbackSignature.SIGNATURE_HEADER, signature)
                        .set(CallbackSignature.EVENT_ID_HEADER, eventId))
                .post()
                .uri(url)
                .send((request, outbound) -> outbound.sendByteArray(Mono.just(bytes)))
                .responseSingle((response, content) -> content.then(Mono.just(response.status().code())));
    }

    @Override
    public void close() {
        closed.tryEmitEmpty();
        connections.disposeLater().block(settings.timeout());
    }

    /** The receiver answered, but not with 2xx. */
    static final class CallbackRejectedException extends RuntimeException {
        CallbackRejectedException(String url, int status) {
            super("callback receiver " + url + " answered " + status);
        }
    }
}

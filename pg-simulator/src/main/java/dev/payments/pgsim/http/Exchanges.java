package dev.payments.pgsim.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/** Ways to end an exchange: answer it, reset it, or hold it open without an answer. */
public final class Exchanges {

    private static final String JSON = "application/json;charset=UTF-8";

    private Exchanges() {
    }

    /**
     * Answers on the connection's event loop, whatever thread the answer was made on (a fault change is made on the
     * listener-switch thread). The exchange then finishes in the same task that writes the answer, before the client
     * can send its next request on the kept-alive connection. Reactor Netty 1.2.18 queues a request that arrives
     * before the previous exchange has finished, and stops reading the connection when the queued one is answered at
     * once (reactor/reactor-netty#4361): the request after it was never answered. The admin API's; the gateway keeps
     * {@link #send} (docs/pg-simulator.md, "Kept-alive connections").
     */
    public static Mono<Void> sendOnEventLoop(HttpServerResponse response, Reply reply) {
        EventLoop loop = eventLoopOf(response);
        if (loop.inEventLoop()) {
            return send(response, reply);
        }
        return Mono.defer(() -> send(response, reply)).subscribeOn(Schedulers.fromExecutor(loop));
    }

    public static Mono<Void> send(HttpServerResponse response, Reply reply) {
        response.status(reply.status());
        if (reply.status() == 204) {
            return response.send().then();
        }
        return response
                .header(HttpHeaderNames.CONTENT_TYPE, JSON)
                .header(HttpHeaderNames.CONTENT_LENGTH, String.valueOf(reply.body().length))
                .sendByteArray(Mono.just(reply.body()))
                .then();
    }

    /** Aborts the TCP connection with RST (SO_LINGER 0), so the client sees "connection reset". */
    public static Mono<Void> reset(HttpServerRequest request) {
        Connection connection = connectionOf(request);
        Channel channel = connection.channel();
        channel.config().setOption(ChannelOption.SO_LINGER, 0);
        channel.close();
        return connection.onDispose();
    }

    /**
     * Never answers: completes when the client gives up (closes the connection) or when
     * {@code release} completes, which closes the connection without an answer. Costs no thread.
     */
    public static Mono<Void> hold(HttpServerRequest request, Mono<Void> release) {
        Connection connection = connectionOf(request);
        Mono<Void> closedByClient = connection.onDispose();
        Mono<Void> closedByUs = release.then(Mono.fromRunnable(() -> connection.channel().close()));
        // Wait for the close itself, so Reactor Netty never writes a default response first.
        return Mono.firstWithSignal(closedByClient, closedByUs).then(connection.onDispose());
    }

    private static EventLoop eventLoopOf(HttpServerResponse response) {
        AtomicReference<EventLoop> loop = new AtomicReference<>();
        response.withConnection(connection -> loop.set(connection.channel().eventLoop()));
        return loop.get();
    }

    private static Connection connectionOf(HttpServerRequest request) {
        AtomicReference<Connection> connection = new AtomicReference<>();
        request.withConnection(connection::set);
        return connection.get();
    }
}

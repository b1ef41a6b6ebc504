package dev.payments.pgsim.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/** Ways to end an exchange: answer it, reset it, or hold it open without an answer. */
public final class Exchanges {

    private static final String JSON = "application/json;charset=UTF-8";

    private Exchanges() {
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

    private static Connection connectionOf(HttpServerRequest request) {
        AtomicReference<Connection> connection = new AtomicReference<>();
        request.withConnection(connection::set);
        return connection.get();
    }
}

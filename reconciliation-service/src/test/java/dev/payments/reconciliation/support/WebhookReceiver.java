package dev.payments.reconciliation.support;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An operator's webhook endpoint: a real HTTP server that keeps every body it receives. */
public final class WebhookReceiver implements AutoCloseable {

    private final HttpServer server;
    private final BlockingQueue<String> bodies = new LinkedBlockingQueue<>();

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    public static WebhookReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            WebhookReceiver receiver = new WebhookReceiver(server);
            server.createContext("/hook", exchange -> {
                receiver.bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    /** The next body received, waiting up to {@code seconds}; null if none came. */
    public String next(int seconds) throws InterruptedException {
        return bodies.poll(seconds, TimeUnit.SECONDS);
    }

    public void clear() {
        bodies.clear();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

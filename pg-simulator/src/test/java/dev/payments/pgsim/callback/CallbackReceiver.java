package dev.payments.pgsim.callback;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/** A merchant's callback endpoint on loopback that records deliveries and answers scripted statuses. */
final class CallbackReceiver implements AutoCloseable {

    record Delivery(String timestamp, String signature, String eventId, String body) {
    }

    private final HttpServer server;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final Queue<Integer> scriptedStatuses = new ConcurrentLinkedQueue<>();

    CallbackReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/pg/callback", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                deliveries.add(new Delivery(
                        exchange.getRequestHeaders().getFirst(CallbackSignature.TIMESTAMP_HEADER),
                        exchange.getRequestHeaders().getFirst(CallbackSignature.SIGNATURE_HEADER),
                        exchange.getRequestHeaders().getFirst(CallbackSignature.EVENT_ID_HEADER),
                        body));
                Integer status = scriptedStatuses.poll();
                exchange.sendResponseHeaders(status == null ? 200 : status, -1);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    /** The next deliveries get these statuses, then 200. */
    void answer(Integer... statuses) {
        scriptedStatuses.addAll(List.of(statuses));
    }

    /** Forgets statuses a test scripted but did not use. */
    void clearScript() {
        scriptedStatuses.clear();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/pg/callback";
    }

    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

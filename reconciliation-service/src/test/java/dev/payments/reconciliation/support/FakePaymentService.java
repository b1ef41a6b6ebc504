package dev.payments.reconciliation.support;

import java.util.Base64;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * A real HTTP endpoint that answers like payment-service's {@code POST /api/payments/{paymentId}/sync} (and
 * {@code /republish}), for the
 * settler's protocol tests only (stop-after-3, backoff, 502 -> incident): payment-service is another Spring Boot
 * application, so the full chain is tested end to end in {@code system-tests}. Answers are scripted per payment (the
 * last one repeats); every call is recorded with its time and bearer token. The fake accepts a token whose subject is
 * reconciliation-service and whose scope is {@code payments:sync} (payment-service's real check of the signature is
 * tested there and in system-tests); {@link #refuseTokens()} makes it answer 401 like a key rotation would.
 */
public final class FakePaymentService implements AutoCloseable {

    /** One scripted answer. */
    public sealed interface Answer {
    }

    /** 200 with the payment after the sync. */
    public record Synced(String paymentStatus, String pgState, String action) implements Answer {
    }

    /** A problem+json answer, as payment-service's handlers write them, with its extra properties (e.g. the stage). */
    public record Problem(int status, String code, String detail, Map<String, String> properties) implements Answer {

        public Problem(int status, String code, String detail) {
            this(status, code, detail, Map.of());
        }
    }

    /** The connection is closed without an answer (payment-service crashed mid-call). */
    public record Drop() implements Answer {
    }

    /** {@code answer}, after {@code delay}: a sync that takes as long as a slow PG makes it. */
    public record Slow(Duration delay, Answer answer) implements Answer {
    }

    /** @param token the bearer token sent, or null */
    public record Call(UUID paymentId, Instant at, String token) {

        /** The token's claims as payment-service reads them (its payload, unverified here). */
        public JsonNode claims() {
            try {
                return token == null ? JSON.createObjectNode()
                        : JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
            } catch (IOException | RuntimeException e) {
                return JSON.createObjectNode();
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static Answer approved() {
        return new Synced("APPROVED", "DONE", "APPROVED");
    }

    /** The status query failed: payment-service's 502 names the stage (its {@code OperatorController}). */
    public static Answer pgDown() {
        return new Problem(502, "PG_SYNC_FAILED", "The PG could not settle payment: STATUS_QUERY failed: No "
                + "connection to the PG at http://pg/v1/payments/pk_1", Map.of("stage", "STATUS_QUERY"));
    }

    /** The PG said DONE and answered the compensating cancel with a 5xx: the detail need not say "cancel". */
    public static Answer cancelFailed() {
        return new Problem(502, "PG_SYNC_FAILED", "The PG could not settle payment: PG answered 500 "
                + "FAILED_INTERNAL_SYSTEM_PROCESSING: boom", Map.of("stage", "CANCEL", "pgState", "DONE"));
    }

    private final HttpServer server;
    private final Map<UUID, Deque<Answer>> scripts = new ConcurrentHashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final List<Call> republishes = new ArrayList<>();
    private volatile Answer republishAnswer = new Synced("APPROVED", null, null);
    private volatile Answer otherwise = new Problem(404, "PAYMENT_NOT_FOUND", "No payment");
    private volatile boolean refuseTokens;

    private FakePaymentService(HttpServer server) {
        this.server = server;
    }

    public static FakePaymentService start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            FakePaymentService fake = new FakePaymentService(server);
            server.createContext("/api/payments/", fake::handle);
            server.setExecutor(Executors.newFixedThreadPool(4));
            server.start();
            return fake;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The answers for one payment, in order; the last repeats. */
    public void script(UUID paymentId, Answer... answers) {
        scripts.put(paymentId, new ArrayDeque<>(List.of(answers)));
    }

    public void otherwise(Answer answer) {
        this.otherwise = answer;
    }

    /** Every token is refused from now on (401 INVALID_TOKEN), as after the issuer rotated its key. */
    public void refuseTokens() {
        this.refuseTokens = true;
    }

    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    public synchronized List<Call> callsOf(UUID paymentId) {
        return calls.stream().filter(c -> c.paymentId().equals(paymentId)).toList();
    }

    /** What {@code POST /api/payments/{id}/republish} answers: a {@link Synced} (200 with two events) or a problem. */
    public void republishAnswer(Answer answer) {
        this.republishAnswer = answer;
    }

    /** The republish calls, in order. */
    public synchronized List<Call> republishes() {
        return List.copyOf(republishes);
    }

    public synchronized void reset() {
        calls.clear();
        republishes.clear();
        republishAnswer = new Synced("APPROVED", null, null);
        scripts.clear();
        otherwise = new Problem(404, "PAYMENT_NOT_FOUND", "No payment");
        refuseTokens = false;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String[] path = exchange.getRequestURI().getPath().split("/");
        if (path.length == 5 && "republish".equals(path[4]) && "POST".equals(exchange.getRequestMethod())) {
            republish(exchange, UUID.fromString(path[3]));
            return;
        }
        // /api/payments/{id}/sync
        if (path.length != 5 || !"sync".equals(path[4]) || !"POST".equals(exchange.getRequestMethod())) {
            write(exchange, 404, "{\"code\":\"NOT_FOUND\"}", "application/problem+json");
            return;
        }
        UUID paymentId = UUID.fromString(path[3]);
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String token = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : null;
        Call call = new Call(paymentId, Instant.now(), token);
        synchronized (this) {
            calls.add(call);
        }
        JsonNode claims = call.claims();
        if (refuseTokens || !Security.CLIENT_ID.equals(claims.path("sub").asText())
                || !claims.path("scope").toString().contains("payments:sync")) {
            write(exchange, 401, problem(new Problem(401, "INVALID_TOKEN", "The bearer token was refused")), "application/problem+json");
            return;
        }
        Answer answer = next(paymentId);
        if (answer instanceof Slow slow) {
            try {
                Thread.sleep(slow.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer = slow.answer();
        }
        if (answer instanceof Drop) {
            exchange.close();
            return;
        }
        if (answer instanceof Problem p) {
            write(exchange, p.status(), problem(p), "application/problem+json");
            return;
        }
        Synced synced = (Synced) answer;
        write(exchange, 200, """
                {"payment":{"paymentId":"%s","status":"%s","customerNotice":"PENDING"},"pgState":"%s","action":"%s"}"""
                .formatted(paymentId, synced.paymentStatus(), synced.pgState(), synced.action()), "application/json");
    }

    /** /api/payments/{id}/republish: 200 with the payment and its two events, or the scripted problem. */
    private void republish(HttpExchange exchange, UUID paymentId) throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String token = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : null;
        Call call = new Call(paymentId, Instant.now(), token);
        synchronized (this) {
            republishes.add(call);
        }
        JsonNode claims = call.claims();
        if (refuseTokens || !Security.CLIENT_ID.equals(claims.path("sub").asText())
                || !claims.path("scope").toString().contains("payments:sync")) {
            write(exchange, 401, problem(new Problem(401, "INVALID_TOKEN", "The bearer token was refused")), "application/problem+json");
            return;
        }
        if (republishAnswer instanceof Problem p) {
            write(exchange, p.status(), problem(p), "application/problem+json");
            return;
        }
        Synced synced = (Synced) republishAnswer;
        write(exchange, 200, """
                {"payment":{"paymentId":"%s","status":"%s"},"events":[{"eventId":"%s","type":"PaymentRequested"},                {"eventId":"%s","type":"PaymentApproved"}]}""".formatted(paymentId, synced.paymentStatus(),
                UUID.randomUUID(), UUID.randomUUID()), "application/json");
    }

    private Answer next(UUID paymentId) {
        Deque<Answer> script = scripts.get(paymentId);
        if (script == null || script.isEmpty()) {
            return otherwise;
        }
        synchronized (script) {
            return script.size() == 1 ? script.peek() : script.poll();
        }
    }

    private static String problem(Problem p) {
        Map<String, Object> body = new java.util.LinkedHashMap<>(p.properties());
        body.put("status", p.status());
        body.put("code", p.code());
        body.put("detail", p.detail());
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(HttpExchange exchange, int status, String body, String type) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

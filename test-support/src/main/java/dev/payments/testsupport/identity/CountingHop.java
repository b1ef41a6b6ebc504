package dev.payments.testsupport.identity;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The issuer's address in the tests: a reverse proxy in the test JVM that forwards every request to auth-server and
 * counts what a test asserts about the issuer's traffic (metadata reads, client-credentials grants per client), from
 * the requests and the issuer's own answers. auth-server has no per-client count of its own; the hop sees what a
 * load balancer in front of it would see.
 */
final class CountingHop implements AutoCloseable {

    /** Hop-by-hop headers and those the JDK client sets itself (RFC 9110 §7.6.1). */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host",
            "keep-alive", "transfer-encoding", "upgrade", "te", "trailer", "proxy-connection");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "issuer-hop");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    private final URI target;
    private final AtomicInteger metadataReads = new AtomicInteger();
    private final Map<String, AtomicInteger> clientCredentialGrants = new ConcurrentHashMap<>();

    /** Listens on a free loopback port ({@link #port()}) and forwards to {@code target}. */
    CountingHop(URI target) {
        this.target = target;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", this::forward);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    int metadataReads() {
        return metadataReads.get();
    }

    int clientCredentialGrants(String clientId) {
        return clientCredentialGrants.getOrDefault(clientId, new AtomicInteger()).get();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(path + (query == null ? "" : "?" + query)))
                    .timeout(Duration.ofSeconds(30))
                    .method(exchange.getRequestMethod(), body.length == 0
                            ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            // The issuer builds its redirects (the sign-in page) on the address its caller used: this one.
            request.header("X-Forwarded-Host", exchange.getRequestHeaders().getFirst("Host"));
            request.header("X-Forwarded-Proto", "http");
            HttpResponse<byte[]> response;
            try {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(502, -1);
                return;
            } catch (IOException e) {
                exchange.sendResponseHeaders(502, -1);
                return;
            }
            count(exchange.getRequestMethod(), path, exchange.getRequestHeaders().getFirst("Authorization"), body,
                    response.statusCode());
            response.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
        }
    }

    private void count(String method, String path, String authorization, byte[] body, int status) {
        if (status != 200) {
            return;
        }
        if ("GET".equals(method) && (path.equals("/.well-known/openid-configuration") || path.equals("/oauth2/jwks"))) {
            metadataReads.incrementAndGet();
        }
        if ("POST".equals(method) && path.equals("/oauth2/token")) {
            Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
            if ("client_credentials".equals(form.get("grant_type"))) {
                clientCredentialGrants.computeIfAbsent(clientId(authorization, form), id -> new AtomicInteger())
                        .incrementAndGet();
            }
        }
    }

    /** HTTP Basic (RFC 6749 §2.3.1: each part form-encoded) or the {@code client_id} form field. */
    private static String clientId(String authorization, Map<String, String> form) {
        if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            String credentials = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                    StandardCharsets.UTF_8);
            int colon = credentials.indexOf(':');
            return URLDecoder.decode(colon < 0 ? credentials : credentials.substring(0, colon), StandardCharsets.UTF_8);
        }
        return form.getOrDefault("client_id", "");
    }

    private static Map<String, String> form(String body) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : body.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                fields.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return fields;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}

package dev.payments.testsupport.identity;

import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small issuer for a service's integration tests: it publishes OpenID Connect discovery and its JWKS over real HTTP,
 * issues client-credentials tokens to registered clients, and signs tokens with its key, so the service verifies them exactly as it verifies the real issuer's. One per test
 * JVM ({@link #shared()}); the system tests use the real issuer (auth-server) instead.
 */
public final class TestIssuer implements AutoCloseable {

    private static TestIssuer shared;

    private final HttpServer server;
    private final JwtMinter minter;
    private final Map<String, String> clientSecrets = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> tokensIssued = new ConcurrentHashMap<>();
    private final Map<String, Minted> memberTokens = new ConcurrentHashMap<>();
    private final AtomicInteger metadataReads = new AtomicInteger();

    private TestIssuer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        minter = new JwtMinter(url, JwtMinter.newKey("test-issuer-key"));
        String jwks = new JWKSet(minter.key().toPublicJWK()).toString(true);
        String discovery = "{\"issuer\":\"" + url + "\",\"jwks_uri\":\"" + url + "/oauth2/jwks\","
                + "\"authorization_endpoint\":\"" + url + "/oauth2/authorize\",\"token_endpoint\":\"" + url + "/oauth2/token\","
                + "\"response_types_supported\":[\"code\"],\"subject_types_supported\":[\"public\"],"
                + "\"id_token_signing_alg_values_supported\":[\"RS256\"]}";
        server.createContext("/.well-known/openid-configuration", exchange -> {
            metadataReads.incrementAndGet();
            json(exchange, discovery);
        });
        server.createContext("/oauth2/jwks", exchange -> {
            metadataReads.incrementAndGet();
            json(exchange, jwks);
        });
        server.createContext("/oauth2/token", this::clientCredentials);
        server.start();
    }

    public static synchronized TestIssuer shared() {
        if (shared == null) {
            shared = new TestIssuer();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "test-issuer-stop"));
        }
        return shared;
    }

    public String url() {
        return minter.issuer();
    }

    /** What a service needs to trust this issuer, as Spring properties. */
    public Map<String, String> springProperties() {
        return Map.of("spring.security.oauth2.resourceserver.jwt.issuer-uri", url(),
                "spring.security.oauth2.resourceserver.jwt.audiences", JwtMinter.AUDIENCE);
    }

    /**
     * A member's token: subject = the member, scope {@code member}. Signed once per member and reused for five of its
     * ten minutes: an RSA signature per request would load the test's client threads at the very moment a
     * concurrency test measures the service.
     */
    public String member(String memberId) {
        Instant now = Instant.now();
        Minted minted = memberTokens.compute(memberId, (id, current) -> current != null
                && current.at().plus(Duration.ofMinutes(5)).isAfter(now)
                ? current : new Minted(minter.token(id).scopes("member").sign(), now));
        return minted.token();
    }

    private record Minted(String token, Instant at) {
    }

    /** An operator's (or a service's) token with the given scopes. */
    public String withScopes(String subject, String... scopes) {
        return minter.token(subject).scopes(scopes).sign();
    }

    /** A token to shape: expired, for another audience or issuer, signed with another key. */
    public JwtMinter.Token token(String subject) {
        return minter.token(subject);
    }

    /** A service that may get tokens with the client credentials grant (any scope it asks for). */
    public void registerClient(String clientId, String secret) {
        clientSecrets.put(clientId, secret);
    }

    /** How often its discovery document or its JWKS has been read, by anyone, since it started. */
    public int metadataReads() {
        return metadataReads.get();
    }

    /** How many tokens a client was given: a client that caches its token asks rarely. */
    public int tokensIssuedTo(String clientId) {
        return tokensIssued.getOrDefault(clientId, new AtomicInteger()).get();
    }

    /** The token endpoint of RFC 6749 §4.4, with HTTP Basic client authentication. */
    private void clientCredentials(HttpExchange exchange) throws IOException {
        Map<String, String> form = new HashMap<>();
        for (String pair : new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                form.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String[] credentials = authorization != null && authorization.startsWith("Basic ")
                ? new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8).split(":", 2)
                : new String[] {form.getOrDefault("client_id", ""), form.getOrDefault("client_secret", "")};
        String clientId = URLDecoder.decode(credentials[0], StandardCharsets.UTF_8);
        String secret = credentials.length > 1 ? URLDecoder.decode(credentials[1], StandardCharsets.UTF_8) : "";
        if (!"client_credentials".equals(form.get("grant_type")) || !secret.equals(clientSecrets.get(clientId))) {
            reply(exchange, 401, "{\"error\":\"invalid_client\"}");
            return;
        }
        String scope = form.getOrDefault("scope", "");
        String token = minter.token(clientId).scopes(scope.isBlank() ? new String[0] : scope.split(" ")).sign();
        tokensIssued.computeIfAbsent(clientId, ignored -> new AtomicInteger()).incrementAndGet();
        reply(exchange, 200, "{\"access_token\":\"" + token + "\",\"token_type\":\"Bearer\",\"expires_in\":600,"
                + "\"scope\":\"" + scope + "\"}");
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private static void json(HttpExchange exchange, String body) throws IOException {
        reply(exchange, 200, body);
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}

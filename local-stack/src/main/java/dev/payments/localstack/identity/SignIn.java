package dev.payments.localstack.identity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Gets a person's access token the standard way a command-line client does: OpenID Connect discovery, then the
 * authorization code flow with PKCE (RFC 7636) and a loopback redirect (RFC 8252) whose code is read off the
 * redirect instead of a browser. The one step that is specific to the local issuer is signing in on its form (Spring
 * Security's login page, CSRF token included); everything else works against any OIDC provider (docs/security.md).
 */
public final class SignIn {

    /** The local issuer's public client (auth-server's {@code auth.cli}). */
    public static final String CLI_CLIENT_ID = "payments-cli";
    public static final String CLI_REDIRECT_URI = "http://127.0.0.1/callback";

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final URI issuer;
    private final String clientId;
    private final String redirectUri;
    private volatile Endpoints endpoints;

    public SignIn(URI issuer) {
        this(issuer, CLI_CLIENT_ID, CLI_REDIRECT_URI);
    }

    public SignIn(URI issuer, String clientId, String redirectUri) {
        this.issuer = issuer;
        this.clientId = clientId;
        this.redirectUri = redirectUri;
    }

    /** An access token and when it stops being accepted. */
    public record AccessToken(String value, Instant expiresAt) {

        public boolean validFor(Duration margin) {
            return Instant.now().plus(margin).isBefore(expiresAt);
        }

        @Override
        public String toString() {
            return "AccessToken[expiresAt=" + expiresAt + "]";
        }
    }

    /** The issuer refused: wrong password, a scope the user's role does not carry, an unknown client. */
    public static final class SignInException extends RuntimeException {
        public SignInException(String message) {
            super(message);
        }
    }

    /** @throws SignInException when the issuer refuses; {@link IllegalStateException} when it cannot be reached */
    public AccessToken token(String username, String password, List<String> scopes) {
        // A fresh cookie jar per sign-in: the session that remembers the authorization request is this flow's only.
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT)
                .cookieHandler(new CookieManager()).followRedirects(HttpClient.Redirect.NEVER).build();
        Endpoints endpoints = endpoints(http);
        URI authorizationEndpoint = endpoints.authorization();
        URI tokenEndpoint = endpoints.token();

        String verifier = random(32);
        String state = random(16);
        URI authorize = URI.create(authorizationEndpoint + "?" + form(Map.of(
                "response_type", "code", "client_id", clientId, "redirect_uri", redirectUri,
                "scope", String.join(" ", scopes), "state", state,
                "code_challenge", challenge(verifier), "code_challenge_method", "S256")));
        HttpResponse<String> toLogin = send(http, get(authorize));
        URI login = location(authorize, toLogin).orElseThrow(() -> refused("the authorization endpoint", toLogin));

        HttpResponse<String> page = send(http, get(login));
        Matcher csrf = CSRF.matcher(page.body());
        if (page.statusCode() != 200 || !csrf.find()) {
            throw refused("the sign-in page " + login, page);
        }
        HttpResponse<String> signedIn = send(http, HttpRequest.newBuilder(login).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("username", username, "password", password,
                        "_csrf", csrf.group(1))))).build());
        URI afterSignIn = location(login, signedIn).orElseThrow(() -> refused("the sign-in form", signedIn));
        if (afterSignIn.getQuery() != null && afterSignIn.getQuery().contains("error")) {
            throw new SignInException("The issuer refused the sign-in of " + username + " (wrong password or no such user)");
        }

        HttpResponse<String> toClient = send(http, get(afterSignIn));
        URI redirect = location(afterSignIn, toClient).orElseThrow(() -> refused("the authorization endpoint", toClient));
        Map<String, String> answer = query(redirect);
        if (answer.containsKey("error")) {
            throw new SignInException("The issuer refused the authorization of " + username + ": " + answer.get("error")
                    + (answer.containsKey("error_description") ? " (" + answer.get("error_description") + ")" : ""));
        }
        if (!state.equals(answer.get("state")) || !answer.containsKey("code")) {
            throw new SignInException("The issuer's redirect carries no code for this request: " + redirect);
        }

        HttpResponse<String> tokens = send(http, HttpRequest.newBuilder(tokenEndpoint).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "authorization_code",
                        "code", answer.get("code"), "redirect_uri", redirectUri, "client_id", clientId,
                        "code_verifier", verifier)))).build());
        if (tokens.statusCode() != 200) {
            throw refused("the token endpoint", tokens);
        }
        long expiresIn = json(tokens.body()).path("expires_in").asLong(300);
        return new AccessToken(field(tokens.body(), "access_token"), Instant.now().plusSeconds(expiresIn));
    }

    private record Endpoints(URI authorization, URI token) {
    }

    /** Read once per client, as OIDC clients do: an issuer's endpoints do not move while it runs. */
    private Endpoints endpoints(HttpClient http) {
        Endpoints known = endpoints;
        if (known == null) {
            String discovery = send(http, HttpRequest.newBuilder(issuer.resolve(path(issuer) + "/.well-known/openid-configuration"))
                    .timeout(TIMEOUT).header("Accept", "application/json").GET().build()).body();
            known = new Endpoints(reachedAt(URI.create(field(discovery, "authorization_endpoint"))),
                    reachedAt(URI.create(field(discovery, "token_endpoint"))));
            endpoints = known;
        }
        return known;
    }

    /**
     * The endpoint on the address this client reached the discovery document at. An issuer's name can be one only its
     * own network resolves: in docker-compose.yml the services know the issuer as auth-server:9000, and the host reaches
     * the same server as localhost:9000; the tokens still carry the issuer's name, which is what the services check.
     */
    URI reachedAt(URI endpoint) {
        if (issuer.getScheme().equalsIgnoreCase(endpoint.getScheme())
                && issuer.getRawAuthority().equalsIgnoreCase(endpoint.getRawAuthority())) {
            return endpoint;
        }
        return URI.create(issuer.getScheme() + "://" + issuer.getRawAuthority() + endpoint.getRawPath()
                + (endpoint.getRawQuery() == null ? "" : "?" + endpoint.getRawQuery()));
    }

    private static String path(URI issuer) {
        String path = issuer.getPath() == null ? "" : issuer.getPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** As a browser asks: a request that accepts JSON is not remembered for after the sign-in (Spring Security). */
    private static HttpRequest get(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "text/html").GET().build();
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("The issuer is not reachable at " + request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while signing in", e);
        }
    }

    private static Optional<URI> location(URI base, HttpResponse<String> response) {
        if (response.statusCode() / 100 != 3) {
            return Optional.empty();
        }
        return response.headers().firstValue("Location").map(base::resolve);
    }

    private static SignInException refused(String what, HttpResponse<String> response) {
        String body = response.body() == null ? "" : response.body();
        return new SignInException(what + " answered " + response.statusCode() + ": "
                + (body.length() > 300 ? body.substring(0, 300) + "..." : body));
    }

    private static String field(String body, String name) {
        String value = json(body).path(name).asText(null);
        if (value == null) {
            throw new SignInException("No " + name + " in the issuer's answer: " + body);
        }
        return value;
    }

    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new SignInException("The issuer's answer is not JSON: " + body);
        }
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    parameters.put(decode(pair.substring(0, equals)), decode(pair.substring(equals + 1)));
                }
            }
        }
        return parameters;
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private static String decode(String text) {
        return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }

    static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.localstack.Component;
import dev.payments.localstack.RepositoryRoot;
import dev.payments.testsupport.http.RawHttp;
import dev.payments.testsupport.identity.JwtMinter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import static dev.payments.system.SystemStack.asMember;
import static dev.payments.system.SystemStack.asOperator;
import static dev.payments.system.SystemStack.call;
import static dev.payments.system.SystemStack.confirm;
import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.get;
import static dev.payments.system.SystemStack.hmac;
import static dev.payments.system.SystemStack.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The trust boundaries as an attacker meets them, black box over real HTTP against the
 * running stack and its real issuer: tokens that are missing, expired, from another issuer, for another audience or
 * signed with another key; member B reading, listing, paying and refunding member A's things; member tokens on
 * operator actions; forged, stale and replayed PG callbacks (a replay within the signature's tolerance is the PG's
 * own truth again and is absorbed: 200, nothing changes). Every answer must be a 4xx problem+json with a code, and
 * afterwards nothing has changed: A's order and payment are as they were and the PG's books hold the same
 * transactions for them. The bad tokens are signed with the issuer's real key (read from the local profile's key
 * file), so each is refused for the one defect it has, not for being foreign; a well-formed token minted the same way
 * is accepted, which shows the harness could pass a bad one too.
 */
class SecuritySystemTest {

    /** payment-service's local-profile webhook secret, which the simulator signs with. */
    private static final String WEBHOOK_SECRET = "test_whsec_simulator";

    private static String memberA;
    private static String memberB;
    private static String orderA;
    private static String paymentA;
    private static JwtMinter issuerKey;

    @BeforeAll
    static void aPaidOrderOfMemberA() {
        SystemStack.get();
        memberA = member();
        memberB = member();
        orderA = createOrder(memberA, 17_000);
        SystemStack.Response paid = confirm(orderA, memberA, 17_000, "security-" + orderA);
        assertThat(paid.status()).as(paid.body().toString()).isEqualTo(200);
        paymentA = paid.text("paymentId");
        await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(orderAsA().text("status")));
        issuerKey = JwtMinter.fromJwkSet(SystemStack.get().issuerSigningKey(), SystemStack.get().issuerUrl());
    }

    @Test
    void everyApiRefusesATokenThatIsMissingExpiredMisaddressedOrForged() {
        Map<String, String> badTokens = new LinkedHashMap<>();
        badTokens.put("expired", issuerKey.token(memberA).scopes("member")
                .expiresAt(Instant.now().minus(Duration.ofMinutes(10))).sign());
        badTokens.put("another issuer", issuerKey.token(memberA).scopes("member").issuer("http://127.0.0.1:1").sign());
        badTokens.put("another audience", issuerKey.token(memberA).scopes("member").audience("another-api").sign());
        badTokens.put("another key", issuerKey.token(memberA).scopes("member").forgedSignature().sign());
        badTokens.put("not a JWT", "not-a-jwt");
        List<Endpoint> endpoints = List.of(
                new Endpoint("POST", Component.ORDER_SERVICE, "/api/orders",
                        "{\"amount\":1000,\"currency\":\"KRW\",\"orderName\":\"x\"}"),
                new Endpoint("GET", Component.ORDER_SERVICE, "/api/orders/" + orderA, null),
                new Endpoint("POST", Component.PAYMENT_SERVICE, "/api/payments/confirm",
                        "{\"orderId\":\"" + orderA + "\",\"paymentKey\":\"pk-" + orderA + "\",\"amount\":17000}"),
                new Endpoint("GET", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA, null),
                new Endpoint("POST", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA + "/cancel", "{}"),
                new Endpoint("POST", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA + "/sync", null),
                new Endpoint("GET", Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderA, null),
                new Endpoint("GET", Component.RECONCILIATION_SERVICE, "/api/incidents", null),
                new Endpoint("GET", Component.RECONCILIATION_SERVICE, "/api/reconciliation/ledger?refresh=true", null),
                new Endpoint("POST", Component.RECONCILIATION_SERVICE, "/api/replay/offsets",
                        "{\"group\":\"order-service\",\"topic\":\"payment.events\",\"from\":\"1970-01-01T00:00:00Z\",\"dryRun\":false}"));
        Books before = books();

        for (Endpoint endpoint : endpoints) {
            assertRefused(endpoint + " without a token", endpoint.call(Map.of()), 401, "UNAUTHENTICATED");
            badTokens.forEach((defect, token) -> assertRefused(endpoint + " with a token of " + defect,
                    endpoint.call(Map.of("Authorization", "Bearer " + token, "Idempotency-Key", "sec-" + UUID.randomUUID())),
                    401, "INVALID_TOKEN"));
        }

        assertThat(books()).isEqualTo(before);
        // The same minting with nothing wrong passes: the refusals above are each token's one defect.
        String wellFormed = issuerKey.token(memberA).scopes("member").sign();
        assertThat(get(Component.ORDER_SERVICE, "/api/orders/" + orderA, Map.of("Authorization", "Bearer " + wellFormed))
                .status()).isEqualTo(200);
    }

    @Test
    void memberBCanNeitherReadNorListNorPayNorRefundMemberAsThings() {
        Books before = books();
        Map<String, String> b = asMember(memberB, Map.of("Idempotency-Key", "b-pays-a-" + orderA));

        assertRefused("B reads A's order", get(Component.ORDER_SERVICE, "/api/orders/" + orderA, b), 404, "ORDER_NOT_FOUND");
        assertRefused("B reads A's payment", get(Component.PAYMENT_SERVICE, "/api/payments/" + paymentA, b),
                404, "PAYMENT_NOT_FOUND");
        assertRefused("B refunds A's payment", call("POST", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA + "/cancel",
                b, "{\"reason\":\"mine now\"}"), 404, "PAYMENT_NOT_FOUND");
        assertRefused("B pays A's order", call("POST", Component.PAYMENT_SERVICE, "/api/payments/confirm", b,
                "{\"orderId\":\"" + orderA + "\",\"paymentKey\":\"pk-b\",\"amount\":17000}"), 404, "ORDER_NOT_FOUND");
        SystemStack.Response listed = get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderA, b);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).as("B lists none of A's notifications").isEmpty();
        await("A sees their own notifications").atMost(Duration.ofSeconds(30)).until(() ->
                !get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderA).body().isEmpty());

        // Naming A in the body of an order gives B an order of B's own.
        SystemStack.Response placed = call("POST", Component.ORDER_SERVICE, "/api/orders", asMember(memberB),
                "{\"memberId\":\"" + memberA + "\",\"amount\":1000,\"currency\":\"KRW\",\"orderName\":\"x\"}");
        assertThat(placed.status()).isEqualTo(201);
        assertThat(placed.text("memberId")).isEqualTo(memberB);

        assertThat(books()).isEqualTo(before);
    }

    @Test
    void operatorActionsRefuseAMemberAndMemberActionsRefuseAnOperator() {
        Books before = books();
        Map<String, String> member = asMember(memberA);
        String incident = UUID.randomUUID().toString();
        List<Endpoint> operatorOnly = List.of(
                new Endpoint("POST", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA + "/sync", null),
                new Endpoint("GET", Component.RECONCILIATION_SERVICE, "/api/reconciliation/payments/" + paymentA, null),
                new Endpoint("GET", Component.RECONCILIATION_SERVICE, "/api/incidents", null),
                new Endpoint("POST", Component.RECONCILIATION_SERVICE, "/api/incidents/" + incident + "/acknowledge", "{}"),
                new Endpoint("POST", Component.RECONCILIATION_SERVICE, "/api/incidents/" + incident + "/resolve",
                        "{\"resolution\":\"x\"}"),
                new Endpoint("GET", Component.RECONCILIATION_SERVICE, "/api/reconciliation/ledger?refresh=true", null),
                new Endpoint("POST", Component.RECONCILIATION_SERVICE, "/api/reconciliation/settle", null),
                new Endpoint("GET", Component.RECONCILIATION_SERVICE, "/api/replay/orders/" + orderA, null),
                new Endpoint("POST", Component.RECONCILIATION_SERVICE, "/api/replay/offsets",
                        "{\"group\":\"order-service\",\"topic\":\"payment.events\",\"from\":\"1970-01-01T00:00:00Z\",\"dryRun\":false}"));
        for (Endpoint endpoint : operatorOnly) {
            assertRefused(endpoint + " with a member's token", endpoint.call(member), 403, "INSUFFICIENT_SCOPE");
        }
        assertRefused("an operator places an order", call("POST", Component.ORDER_SERVICE, "/api/orders", asOperator(),
                "{\"amount\":1000,\"currency\":\"KRW\",\"orderName\":\"x\"}"), 403, "INSUFFICIENT_SCOPE");
        assertRefused("an operator refunds", call("POST", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA + "/cancel",
                asOperator(), "{}"), 403, "INSUFFICIENT_SCOPE");
        // reconciliation-service's own client may sync, and nothing else: it is no member and no operator.
        String service = issuerKey.token("reconciliation-service").scopes("payments:sync").sign();
        assertRefused("the service token reads a payment", get(Component.PAYMENT_SERVICE, "/api/payments/" + paymentA,
                Map.of("Authorization", "Bearer " + service)), 403, "INSUFFICIENT_SCOPE");
        assertRefused("the service token lists incidents", get(Component.RECONCILIATION_SERVICE, "/api/incidents",
                Map.of("Authorization", "Bearer " + service)), 403, "INSUFFICIENT_SCOPE");

        assertThat(books()).isEqualTo(before);
    }

    @Test
    void forgedStaleAndReplayedCallbacksMoveNothing() {
        Books before = books();
        String claimsCanceled = "{\"eventType\":\"PAYMENT_STATUS_CHANGED\",\"data\":{\"paymentKey\":\"pk-" + orderA
                + "\",\"orderId\":\"" + orderA + "\",\"status\":\"CANCELED\"}}";
        long now = Instant.now().getEpochSecond();

        assertRefused("an unsigned callback", callback(claimsCanceled, null, null), 401, "INVALID_SIGNATURE");
        assertRefused("a callback signed with another secret", callback(claimsCanceled, String.valueOf(now),
                "v1=" + hmac("not-the-secret", now + "." + claimsCanceled)), 401, "INVALID_SIGNATURE");
        assertRefused("a signature over another body", callback(claimsCanceled, String.valueOf(now),
                "v1=" + hmac(WEBHOOK_SECRET, now + "." + claimsCanceled.replace("CANCELED", "DONE"))), 401, "INVALID_SIGNATURE");
        long anHourAgo = now - 3600;
        assertRefused("a captured callback replayed an hour later", callback(claimsCanceled, String.valueOf(anHourAgo),
                "v1=" + hmac(WEBHOOK_SECRET, anHourAgo + "." + claimsCanceled)), 401, "INVALID_SIGNATURE");

        // Correctly signed and within the tolerance, delivered twice: the callback is a hint, payment-service asks the
        // PG, and the PG says DONE - its claim of CANCELED moves nothing, the first time or the second.
        String signature = "v1=" + hmac(WEBHOOK_SECRET, now + "." + claimsCanceled);
        for (int delivery = 1; delivery <= 2; delivery++) {
            SystemStack.Response replayed = callback(claimsCanceled, String.valueOf(now), signature);
            assertThat(replayed.status()).as("delivery %d: %s", delivery, replayed.body()).isEqualTo(200);
        }

        assertThat(books()).isEqualTo(before);
    }

    /**
     * A genuine callback captured and replayed after the payment moved on: A pays a second order, the PG's DONE
     * callback for it is delivered, A refunds, and the captured callback is delivered again, twice, within the
     * signature's tolerance. payment-service asks the PG, which says CANCELED: the payment and the order stay
     * CANCELED, no notice is sent again, the PG's books for the order are unchanged - and stay so while the events a
     * wrongly applied replay would publish had time to arrive.
     */
    @Test
    void aCapturedCallbackReplayedAfterTheRefundMovesNothing() {
        String order = createOrder(memberA, 9_000);
        SystemStack.Response paid = confirm(order, memberA, 9_000, "replay-" + order);
        assertThat(paid.status()).as(paid.body().toString()).isEqualTo(200);
        String payment = paid.text("paymentId");
        long capturedAt = Instant.now().getEpochSecond();
        String done = "{\"eventType\":\"PAYMENT_STATUS_CHANGED\",\"data\":{\"paymentKey\":\"pk-" + order
                + "\",\"orderId\":\"" + order + "\",\"status\":\"DONE\"}}";
        String signature = "v1=" + hmac(WEBHOOK_SECRET, capturedAt + "." + done);
        SystemStack.Response delivered = callback(done, String.valueOf(capturedAt), signature);
        assertThat(delivered.status()).as(delivered.body().toString()).isEqualTo(200);

        SystemStack.Response refunded = call("POST", Component.PAYMENT_SERVICE, "/api/payments/" + payment + "/cancel",
                asMember(memberA), "{\"reason\":\"changed my mind\"}");
        assertThat(refunded.status()).as(refunded.body().toString()).isEqualTo(200);
        assertThat(refunded.text("status")).isEqualTo("CANCELED");
        await("the refund reached the order and the member").atMost(Duration.ofSeconds(60)).until(() ->
                "CANCELED".equals(get(Component.ORDER_SERVICE, "/api/orders/" + order).text("status"))
                        && notificationKinds(order).contains("PAYMENT_CANCELED"));
        OrderBooks before = orderBooks(order, payment);
        assertThat(before.paymentStatus()).isEqualTo("CANCELED");

        for (int replay = 1; replay <= 2; replay++) {
            SystemStack.Response replayed = callback(done, String.valueOf(capturedAt), signature);
            assertThat(replayed.status()).as("replay %d: %s", replay, replayed.body()).isEqualTo(200);
        }
        await("nothing moves after the replays").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(30))
                .until(() -> orderBooks(order, payment).equals(before));
    }

    /** One order's books: its state, its payment's, the member's notices about it and the PG's transactions. */
    private record OrderBooks(String orderStatus, String paymentStatus, List<String> notices, List<String> pgTransactions) {
    }

    private static OrderBooks orderBooks(String order, String payment) {
        return new OrderBooks(get(Component.ORDER_SERVICE, "/api/orders/" + order).text("status"),
                get(Component.PAYMENT_SERVICE, "/api/payments/" + payment).text("status"), notificationKinds(order),
                pgTransactionsOf(order));
    }

    private static List<String> notificationKinds(String order) {
        List<String> kinds = new ArrayList<>();
        get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + order).body()
                .forEach(notice -> kinds.add(notice.path("kind").asText()));
        kinds.sort(null);
        return kinds;
    }

    /**
     * Oversized and malformed requests on every public endpoint - every operation of the services' committed OpenAPI
     * documents (docs/api, which each service's own integration test holds equal to what it serves, so an endpoint
     * added later is attacked here too) - with a token that may call it, so that what refuses them is the limit, not
     * the token: a declared 200 MB body (413 before any of it is read, even where no body is expected), a chunked one
     * that never ends (413, answered while the client is still sending), JSON that is broken, too deep or has a
     * 2000-digit number, a charset that does not exist (400), headers and a URL over the limit and an encoded NUL in
     * the path (400 from Tomcat itself). Every answer is a 4xx problem+json with its code; no 5xx, and nothing changed.
     */
    @Test
    void oversizedAndMalformedRequestsAreRefusedOnEveryPublicEndpoint() {
        Books before = books();
        long twoHundredMb = 200L * 1024 * 1024;
        List<Operation> operations = publishedOperations();
        assertThat(operations).as("the documents name the webhook and the member and operator APIs")
                .anyMatch(o -> o.access() == Access.OPEN).anyMatch(o -> o.access() == Access.MEMBER)
                .anyMatch(o -> o.access() == Access.OPERATOR);

        for (Operation operation : operations) {
            int port = SystemStack.get().portOf(operation.component());
            String head = operation.method() + " " + operation.path() + " HTTP/1.1\r\nHost: x\r\n"
                    + operation.authorization() + "Idempotency-Key: big-" + UUID.randomUUID()
                    + "\r\nContent-Type: application/json\r\n";
            RawHttp.Answer declared = RawHttp.send(port, head + "Content-Length: " + twoHundredMb + "\r\n\r\n",
                    twoHundredMb, false);
            assertRaw(operation + " with a declared 200 MB body", declared, 413, "PAYLOAD_TOO_LARGE");
            assertThat(declared.bodyBytesSent()).as(operation + ": answered before the body was read").isLessThan(twoHundredMb / 10);

            String rest = " HTTP/1.1\r\nHost: x\r\n" + operation.authorization() + "Connection: close\r\n";
            assertRaw(operation + " with a 20 KB header", RawHttp.send(port, operation.method() + " " + operation.path()
                    + rest + "X-Filler: " + "f".repeat(20_000) + "\r\nContent-Length: 0\r\n\r\n"), 400, "MALFORMED_REQUEST");
            assertRaw(operation + " with a 20 KB URL", RawHttp.send(port, operation.method() + " " + operation.path()
                    + "?q=" + "u".repeat(20_000) + rest + "Content-Length: 0\r\n\r\n"), 400, "MALFORMED_REQUEST");
            assertRaw(operation + " with an encoded NUL in the path", RawHttp.send(port, operation.method() + " "
                    + operation.path() + "%00" + rest + "Content-Length: 0\r\n\r\n"), 400, "MALFORMED_REQUEST");
            if (!operation.takesBody()) {
                continue;
            }
            RawHttp.Answer streamed = RawHttp.send(port, head + "Transfer-Encoding: chunked\r\n\r\n", twoHundredMb, true);
            assertRaw(operation + " with an endless chunked body", streamed, 413, "PAYLOAD_TOO_LARGE");
            assertThat(streamed.bodyBytesSent()).as(operation + ": answered before the body was read").isLessThan(twoHundredMb / 10);
            for (String malformed : List.of("{\"amount\":", "{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}",
                    "{\"amount\":" + "9".repeat(2_000) + "}")) {
                RawHttp.Answer answer = RawHttp.send(port, head + signedHeaders(malformed) + "Connection: close\r\n"
                        + "Content-Length: " + malformed.length() + "\r\n\r\n" + malformed);
                assertRaw(operation + " with " + malformed.substring(0, Math.min(16, malformed.length())), answer,
                        400, "MALFORMED_REQUEST");
            }
            String json = "{}";
            RawHttp.Answer badCharset = RawHttp.send(port, head.replace("Content-Type: application/json\r\n",
                    "Content-Type: application/json; charset=no-such-charset\r\n") + signedHeaders(json)
                    + "Connection: close\r\nContent-Length: " + json.length() + "\r\n\r\n" + json);
            assertThat(badCharset.status()).as(operation + " with an unknown charset: " + badCharset).isBetween(400, 499);
            assertThat(badCharset.contentType()).as(operation + " with an unknown charset: " + badCharset)
                    .startsWith("application/problem+json");
            assertThat(badCharset.code()).as(operation + " with an unknown charset: " + badCharset).isNotBlank();
        }

        assertThat(books()).isEqualTo(before);
    }

    /**
     * Bodies no endpoint reads, on every operation of the committed OpenAPI documents, with a token that may call it
     * and without one: a form of random bytes (the default of curl and many clients; the security firewall refused its
     * parameters inside Spring MVC, which ended as a 500 INTERNAL_ERROR with the bytes in an ERROR log line), a form
     * with control characters, malformed multipart, plain text, a content type that does not parse and JSON in another
     * charset. Each is 415 {@code UNSUPPORTED_MEDIA_TYPE} problem+json, and nothing changed.
     */
    @Test
    void bodiesThatAreNotJsonAreRefusedOnEveryPublicEndpoint() {
        Books before = books();
        java.util.Random random = new java.util.Random(31);
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            StringBuilder bytes = new StringBuilder();
            for (int b = 0, n = 1 + random.nextInt(300); b < n; b++) {
                bytes.append((char) random.nextInt(256));
            }
            bodies.add(bytes.toString());
        }
        Map<String, String> contentTypes = new LinkedHashMap<>();
        contentTypes.put("a form with control characters", "application/x-www-form-urlencoded");
        contentTypes.put("malformed multipart", "multipart/form-data; boundary=xyz");
        contentTypes.put("plain text", "text/plain");
        contentTypes.put("a content type that does not parse", "%%%/;;=");
        contentTypes.put("JSON in UTF-16", "application/json; charset=UTF-16");
        String hostile = "%00=%0A&a\u0001=\u0002&--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\u0000\r\n";

        for (Operation operation : publishedOperations()) {
            int port = SystemStack.get().portOf(operation.component());
            for (String authorization : List.of(operation.authorization(), "")) {
                String who = authorization.isEmpty() ? " without a token" : " with a token";
                String head = operation.method() + " " + operation.path() + " HTTP/1.1\r\nHost: x\r\n" + authorization
                        + "Idempotency-Key: form-" + UUID.randomUUID() + "\r\nConnection: close\r\n";
                for (int i = 0; i < bodies.size(); i++) {
                    String body = bodies.get(i);
                    assertRaw(operation + who + " and random form #" + i, RawHttp.send(port, head
                            + "Content-Type: application/x-www-form-urlencoded\r\n" + signedHeaders(body)
                            + "Content-Length: " + body.length() + "\r\n\r\n" + body), 415, "UNSUPPORTED_MEDIA_TYPE");
                }
                contentTypes.forEach((what, contentType) -> assertRaw(operation + who + " and " + what,
                        RawHttp.send(port, head + "Content-Type: " + contentType + "\r\n" + signedHeaders(hostile)
                                + "Content-Length: " + hostile.length() + "\r\n\r\n" + hostile),
                        415, "UNSUPPORTED_MEDIA_TYPE"));
            }
        }

        assertThat(books()).isEqualTo(before);
    }

    /** Who may call an operation, from its security requirement in the service's OpenAPI document. */
    private enum Access { OPEN, MEMBER, OPERATOR }

    private record Operation(String method, Component component, String path, Access access, boolean takesBody) {

        /** The Authorization header line of a caller the operation admits (A for a member's, none for the webhook). */
        String authorization() {
            return switch (access) {
                case OPEN -> "";
                case MEMBER -> "Authorization: " + asMember(memberA).get("Authorization") + "\r\n";
                case OPERATOR -> "Authorization: " + asOperator().get("Authorization") + "\r\n";
            };
        }

        @Override
        public String toString() {
            return method + " " + component.id() + path;
        }
    }

    /** Every operation in docs/api/<service>.json, its path parameters filled with A's order and payment (else new ids). */
    private static List<Operation> publishedOperations() {
        Path documents = RepositoryRoot.find(Path.of("")).resolve("docs/api");
        List<Operation> operations = new ArrayList<>();
        for (Component component : List.of(Component.ORDER_SERVICE, Component.PAYMENT_SERVICE,
                Component.NOTIFICATION_SERVICE, Component.RECONCILIATION_SERVICE)) {
            JsonNode document;
            try {
                document = new ObjectMapper().readTree(documents.resolve(component.id() + ".json").toFile());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
                operations.add(new Operation(op.getKey().toUpperCase(Locale.ROOT), component,
                        concrete(path.getKey()), access(op.getValue().path("security")), op.getValue().has("requestBody")));
            }));
        }
        return operations;
    }

    /** An empty requirement is the signed webhook's; the {@code member} scope a member's; any other an operator's. */
    private static Access access(JsonNode security) {
        if (security.isArray() && security.isEmpty()) {
            return Access.OPEN;
        }
        for (JsonNode scopes : security.findValues("bearer")) {
            for (JsonNode scope : scopes) {
                if ("member".equals(scope.asText())) {
                    return Access.MEMBER;
                }
            }
        }
        return Access.OPERATOR;
    }

    private static String concrete(String template) {
        return template.replace("{orderId}", orderA).replace("{paymentId}", paymentA)
                .replaceAll("\\{[^}]+}", UUID.randomUUID().toString());
    }

    /**
     * Input hygiene: an amount that is fractional or out of range, a currency the PG does not book, CR/LF or a tab in
     * what ends up in a log line (a payment key, an idempotency key, a reason, an operator's resolution): 400
     * {@code VALIDATION_FAILED}, or {@code MALFORMED_REQUEST} where Jackson refuses the type, and nothing changed.
     */
    @Test
    void valuesOutOfTheirRangeOrFormatAreRefused() {
        Books before = books();
        Map<String, String> a = asMember(memberA, Map.of("Idempotency-Key", "hygiene-" + UUID.randomUUID()));
        record Case(String what, Component component, String path, Map<String, String> headers, String body, String code) {
        }
        List<Case> cases = List.of(
                new Case("a fractional amount", Component.ORDER_SERVICE, "/api/orders", a,
                        "{\"amount\":1000.5,\"currency\":\"KRW\",\"orderName\":\"x\"}", "MALFORMED_REQUEST"),
                new Case("an amount over the maximum", Component.ORDER_SERVICE, "/api/orders", a,
                        "{\"amount\":1000000000001,\"currency\":\"KRW\",\"orderName\":\"x\"}", "VALIDATION_FAILED"),
                new Case("a currency the PG does not book", Component.ORDER_SERVICE, "/api/orders", a,
                        "{\"amount\":1000,\"currency\":\"USD\",\"orderName\":\"x\"}", "VALIDATION_FAILED"),
                new Case("CR/LF in an order name", Component.ORDER_SERVICE, "/api/orders", a,
                        "{\"amount\":1000,\"currency\":\"KRW\",\"orderName\":\"x\\r\\nINFO forged\"}", "VALIDATION_FAILED"),
                new Case("CR/LF in a payment key", Component.PAYMENT_SERVICE, "/api/payments/confirm", a,
                        "{\"orderId\":\"" + orderA + "\",\"paymentKey\":\"pk\\r\\nINFO forged\",\"amount\":17000}", "VALIDATION_FAILED"),
                new Case("a fractional amount to pay", Component.PAYMENT_SERVICE, "/api/payments/confirm", a,
                        "{\"orderId\":\"" + orderA + "\",\"paymentKey\":\"pk-x\",\"amount\":16999.9}", "MALFORMED_REQUEST"),
                new Case("a tab in the idempotency key", Component.PAYMENT_SERVICE, "/api/payments/confirm",
                        asMember(memberA, Map.of("Idempotency-Key", "key\twith-tab")),
                        "{\"orderId\":\"" + orderA + "\",\"paymentKey\":\"pk-x\",\"amount\":17000}", "VALIDATION_FAILED"),
                new Case("CR/LF in a refund reason", Component.PAYMENT_SERVICE, "/api/payments/" + paymentA + "/cancel", a,
                        "{\"reason\":\"x\\nINFO forged\"}", "VALIDATION_FAILED"),
                new Case("a payment id that is no UUID", Component.PAYMENT_SERVICE, "/api/payments/not-a-uuid/cancel", a,
                        "{}", "VALIDATION_FAILED"),
                new Case("CR/LF in a resolution", Component.RECONCILIATION_SERVICE,
                        "/api/incidents/" + UUID.randomUUID() + "/resolve", asOperator(),
                        "{\"resolution\":\"x\\r\\nINFO forged\"}", "VALIDATION_FAILED"));
        for (Case c : cases) {
            assertRefused(c.what(), call("POST", c.component(), c.path(), c.headers(), c.body()), 400, c.code());
        }
        assertThat(books()).isEqualTo(before);
    }

    /**
     * Each service reaches PostgreSQL as a role of its own that owns its database and nothing else: not a superuser,
     * no way into another service's database, and the replication privilege its outbox relay needs. Seen from the
     * server: who is connected to each service's database right now.
     */
    @Test
    void eachServiceConnectsAsItsOwnRoleThatOwnsOnlyItsDatabase() throws Exception {
        List<String> databases = List.of("orders", "payments", "notifications", "reconciliation");
        try (java.sql.Connection admin = java.sql.DriverManager.getConnection(SystemStack.get().jdbcUrl("postgres"),
                "postgres", "postgres")) {
            for (String database : databases) {
                List<String> connectedAs = strings(admin, "SELECT DISTINCT usename FROM pg_stat_activity"
                        + " WHERE datname = ? AND backend_type = 'client backend'", database);
                assertThat(connectedAs).as("roles connected to " + database).containsExactly(database);
                assertThat(strings(admin, "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = ?", database))
                        .as("owner of " + database).containsExactly(database);
                assertThat(strings(admin, "SELECT rolsuper || ',' || rolreplication || ',' || rolcreatedb || ','"
                        + " || rolcreaterole FROM pg_roles WHERE rolname = ?", database))
                        .as("superuser, replication, createdb, createrole of " + database).containsExactly("false,true,false,false");
                for (String other : databases) {
                    if (!other.equals(database)) {
                        assertThat(strings(admin, "SELECT has_database_privilege(?, '" + other + "', 'CONNECT')::text",
                                database)).as(database + " may connect to " + other).containsExactly("false");
                    }
                }
            }
        }
    }

    private static List<String> strings(java.sql.Connection connection, String sql, String parameter)
            throws java.sql.SQLException {
        try (java.sql.PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            List<String> values = new ArrayList<>();
            try (java.sql.ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        }
    }

    /** The PG's signature over {@code body}, so a malformed callback reaches the JSON parser rather than the check. */
    private static String signedHeaders(String body) {
        long now = Instant.now().getEpochSecond();
        return "X-PG-Timestamp: " + now + "\r\nX-PG-Signature: v1=" + hmac(WEBHOOK_SECRET, now + "." + body) + "\r\n";
    }

    private static void assertRaw(String what, RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as(what + ": " + answer).isEqualTo(status);
        assertThat(answer.contentType()).as(what + ": " + answer).startsWith("application/problem+json");
        assertThat(answer.code()).as(what + ": " + answer).isEqualTo(code);
    }

    private static SystemStack.Response callback(String body, String timestamp, String signature) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (timestamp != null) {
            headers.put("X-PG-Timestamp", timestamp);
        }
        if (signature != null) {
            headers.put("X-PG-Signature", signature);
        }
        return call("POST", Component.PAYMENT_SERVICE, "/api/pg/webhooks", headers, body);
    }

    private static void assertRefused(String what, SystemStack.Response response, int status, String code) {
        assertThat(response.status()).as(what + ": " + response.body()).isEqualTo(status);
        assertThat(response.contentType()).as(what).startsWith("application/problem+json");
        assertThat(response.text("code")).as(what).isEqualTo(code);
    }

    /** What an attack could have moved: A's order and payment as A sees them, and the PG's transactions for A's order. */
    private record Books(String orderStatus, String paymentStatus, List<String> pgTransactions) {
    }

    private static Books books() {
        return new Books(orderAsA().text("status"), get(Component.PAYMENT_SERVICE, "/api/payments/" + paymentA).text("status"),
                pgTransactionsOf(orderA));
    }

    private static SystemStack.Response orderAsA() {
        return get(Component.ORDER_SERVICE, "/api/orders/" + orderA);
    }

    private static List<String> pgTransactionsOf(String orderId) {
        List<String> transactions = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = pg("/v1/transactions?limit=1000" + (cursor == null ? "" : "&startingAfter=" + cursor));
            for (JsonNode transaction : page.path("transactions")) {
                if (orderId.equals(transaction.path("orderId").asText())) {
                    transactions.add(transaction.path("type").asText() + " " + transaction.path("amount").asText()
                            + " " + transaction.path("transactionKey").asText());
                }
            }
            cursor = page.path("hasNext").asBoolean(false) ? page.path("nextCursor").asText() : null;
        } while (cursor != null);
        return transactions;
    }

    private static JsonNode pg(String path) {
        return SystemStack.pg("GET", path, null);
    }

    private record Endpoint(String method, Component component, String path, String body) {

        SystemStack.Response call(Map<String, String> headers) {
            return SystemStack.call(method, component, path, headers, body);
        }

        @Override
        public String toString() {
            return method + " " + component.id() + path;
        }
    }
}

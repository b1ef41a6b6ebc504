package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import dev.payments.localstack.LocalStack;
import dev.payments.localstack.LocalStackOptions;
import dev.payments.localstack.RunningStack;
import dev.payments.localstack.http.Http;
import dev.payments.testsupport.infra.TestTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The whole system as the README's run command starts it — every service in its own JVM from its runnable jar, the
 * token issuer (auth-server) among them — on random ports, once per test JVM, driven through HTTP like a client would,
 * with real tokens: a member signs in at the issuer (authorization code + PKCE) and every call carries their token.
 * {@link #get(Component, String)} reads as the member who placed the order or paid the payment named in the path (the
 * stack remembers who did), and as operator-1 on reconciliation-service.
 */
final class SystemStack {

    /** The confirm's answer is lost after the PG approved it, and the status query that follows fails. */
    static final String ANSWER_LOST_AND_PG_UNASKABLE = """
            [{"operation":"confirm","dropResponseRate":1.0,"dropMode":"RESET"},
             {"operation":"query","errorRate":1.0,"errorStatus":503}]""";
    private static final String PG_KEY = "test_sk_simulator";

    private static RunningStack stack;
    private static final Http HTTP = new Http();
    private static final Duration CALL = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    /** orderId or paymentId -> the member who placed or paid it. */
    private static final Map<String, String> OWNERS = new ConcurrentHashMap<>();
    /** A member's bearer header -> the member, to learn who owns what a call creates. */
    private static final Map<String, String> MEMBER_OF = new ConcurrentHashMap<>();
    private static final java.util.Set<String> TOKENS = ConcurrentHashMap.newKeySet();

    private SystemStack() {
    }

    static synchronized RunningStack get() {
        if (stack == null) {
            try {
                Path dataDir = Files.createTempDirectory("system-tests-stack");
                stack = LocalStack.start(LocalStackOptions.builder()
                        .randomPorts()
                        .dataDir(dataDir)
                        .clean(true)
                        .controlPort(-1)
                        // Offsets flushed rarely, so a kill -9 makes the relay send what Kafka already has again:
                        // the crash test needs those duplicates to show the consumers absorb them.
                        .extraArg(Component.PAYMENT_SERVICE, "--outbox.relay.offset-flush-interval=60s")
                        // A client retrying a confirm while payment-service has not seen the order yet (it rejoins
                        // its consumer group after a restart) spends the member's allowance; not what is tested here.
                        .extraArg(Component.PAYMENT_SERVICE, "--payment.approval.per-member-per-minute=600")
                        // A payment the PG has never seen is FAILED 25 s after its request instead of 60 s, so the
                        // late-booking case (FAILED, then the PG books it) fits in a minute. Still above the 20 s
                        // approval deadline, the condition the 60 s rule rests on (docs/resilience.md).
                        .extraArg(Component.PAYMENT_SERVICE, "--payment.approval.not-found-is-final-after=25s")
                        // Two failed compensating cancels open an incident instead of five (about a minute of
                        // backoff): the "cancel fails every time" case then takes seconds. The rule is the same.
                        .extraArg(Component.RECONCILIATION_SERVICE, "--reconciliation.incidents.compensation-attempts=2")
                        // 3 min; more on a machine so busy that a service takes longer to start (as here, with
                        // several engineers building on 2 cores): -Dsystem-tests.health-timeout-seconds=600
                        .healthTimeout(Duration.ofSeconds(Long.getLong("system-tests.health-timeout-seconds", 180)))
                        .build());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "system-stack-stop"));
        }
        return stack;
    }

    record Response(int status, JsonNode body, String contentType) {
        String text(String field) {
            return body.path(field).asText(null);
        }
    }

    static Response post(Component component, String path, Map<String, String> headers, String body) {
        Response response = call("POST", component, path, headers, body);
        String member = MEMBER_OF.get(headers.getOrDefault("Authorization", ""));
        if (member != null && response.body().isObject()) {
            for (String id : new String[] {response.text("orderId"), response.text("paymentId")}) {
                if (id != null) {
                    OWNERS.putIfAbsent(id, member);
                }
            }
        }
        return response;
    }

    /** As the owner of the order or payment the path names (members' services), or as operator-1 (reconciliation). */
    static Response get(Component component, String path) {
        if (component == Component.RECONCILIATION_SERVICE) {
            return get(component, path, asOperator());
        }
        Matcher ids = ID.matcher(path);
        while (ids.find()) {
            String owner = OWNERS.get(ids.group());
            if (owner != null) {
                return get(component, path, asMember(owner));
            }
        }
        return get(component, path, Map.of());
    }

    /** The header of a member's access token from the stack's issuer (signed in once, cached until near expiry). */
    static Map<String, String> asMember(String memberId) {
        String header = "Bearer " + get().tokens().member(memberId);
        MEMBER_OF.put(header, memberId);
        TOKENS.add(header.substring("Bearer ".length()));
        return Map.of("Authorization", header);
    }

    /** operator-1's token with every operator scope. */
    static Map<String, String> asOperator() {
        String token = get().tokens().operator("operator-1");
        TOKENS.add(token);
        return Map.of("Authorization", "Bearer " + token);
    }

    /** Every access token this JVM's tests were handed: none may ever appear in a log (LogsSystemTest). */
    static java.util.Set<String> tokensHandedOut() {
        return java.util.Set.copyOf(TOKENS);
    }

    /** {@code headers} plus the member's token. */
    static Map<String, String> asMember(String memberId, Map<String, String> headers) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.putAll(asMember(memberId));
        return all;
    }

    /** Any method, any headers, a body or none: the security tests' raw call. */
    static Response call(String method, Component component, String path, Map<String, String> headers, String body) {
        String url = get().urlOf(component) + path;
        return answer(url, HTTP.send(method, url, headers, body, CALL));
    }

    static Response get(Component component, String path, Map<String, String> headers) {
        return call("GET", component, path, headers, null);
    }

    /** A GET to a service's management port, where actuator lives. */
    static Response management(Component component, String path) {
        String url = get().managementUrlOf(component) + path;
        return answer(url, HTTP.get(url, CALL));
    }

    /**
     * Waits until the payment service's approval breaker admits calls again. System tests share one stack, and the PG
     * faults one test injects (lost answers, a late booking) count against the breaker the next test's confirm meets;
     * a test that needs an approval starts once the breaker is past OPEN, as a customer retrying after 503 would.
     */
    static void awaitApprovalsAdmitted() {
        Awaitility.await("the pg-approve breaker to leave OPEN").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> metric(Component.PAYMENT_SERVICE, "resilience4j_circuitbreaker_state",
                        "name=\"pg-approve\"", "state=\"open\"") == 0);
    }

    /**
     * The value of a Prometheus sample as scraped: the series named {@code name} whose labels contain every one of
     * {@code labels} (e.g. {@code reason="COMPENSATION_FAILED"}, or "" for any); 0 when there is none.
     */
    static double metric(Component component, String name, String... labels) {
        String url = get().managementUrlOf(component) + "/actuator/prometheus";
        Http.Response scrape = HTTP.get(url, CALL);
        if (scrape.status() == 0) {
            throw new IllegalStateException(url + ": " + scrape.error());
        }
        return scrape.body().lines()
                .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .filter(line -> Arrays.stream(labels).allMatch(line::contains))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElse(0);
    }

    /** The answer with its body as JSON (or as a text node when it is not JSON); no answer at all throws. */
    private static Response answer(String url, Http.Response response) {
        if (response.status() == 0) {
            throw new IllegalStateException(url + ": " + response.error());
        }
        JsonNode json;
        try {
            json = response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException notJson) {
            json = JSON.getNodeFactory().textNode(response.body());
        }
        return new Response(response.status(), json, response.contentType());
    }

    static String createOrder(String memberId, long amount) {
        Response created = post(Component.ORDER_SERVICE, "/api/orders", asMember(memberId),
                "{\"amount\":" + amount + ",\"currency\":\"KRW\",\"orderName\":\"Annual plan\"}");
        if (created.status() != 201) {
            throw new IllegalStateException("Order not created: " + created);
        }
        return created.text("orderId");
    }

    /**
     * Confirms like a client: once the approval breaker admits calls, and retried while payment-service has not yet
     * seen the order (its view is eventual).
     */
    static Response confirm(String orderId, String memberId, long amount, String idempotencyKey) {
        String body = "{\"orderId\":\"" + orderId + "\",\"paymentKey\":\"pk-" + orderId + "\",\"amount\":" + amount + "}";
        Map<String, String> headers = asMember(memberId, Map.of("Idempotency-Key", idempotencyKey));
        awaitApprovalsAdmitted();
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Response response = post(Component.PAYMENT_SERVICE, "/api/payments/confirm", headers, body);
        while (response.status() == 404 && System.nanoTime() < until) {
            sleep(Duration.ofMillis(100));
            response = post(Component.PAYMENT_SERVICE, "/api/payments/confirm", headers, body);
        }
        return response;
    }

    /** The PG's webhook signature (HMAC-SHA256, hex) of {@code text}, as the simulator signs its callbacks. */
    static String hmac(String secret, String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String member() {
        return "member-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A topic of the stack's broker, read like a console consumer would. */
    static TestTopic topic(String name) {
        return TestTopic.named(name, get().bootstrapServers());
    }

    static String header(ConsumerRecord<String, String> record, String name) {
        return TestTopic.header(record, name);
    }

    static String eventId(ConsumerRecord<String, String> record) {
        return header(record, Topics.HEADER_EVENT_ID);
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The PG simulator's admin API (faults), as the drills use it; anything but 2xx throws. */
    static JsonNode admin(String method, String path, String body) {
        return pgCall(get().pgSimulatorAdminUrl() + path, method, body, Map.of());
    }

    /** The PG's own API with the merchant's secret key (its books, a console cancel, billing keys). */
    static JsonNode pg(String method, String path, String body) {
        String auth = "Basic " + Base64.getEncoder().encodeToString((PG_KEY + ":").getBytes(StandardCharsets.UTF_8));
        return pgCall(get().urlOf(Component.PG_SIMULATOR) + path, method, body, Map.of("Authorization", auth));
    }

    private static JsonNode pgCall(String url, String method, String body, Map<String, String> headers) {
        Http.Response response = HTTP.send(method, url, headers, body, Duration.ofSeconds(10));
        if (response.status() / 100 != 2) {
            throw new IllegalStateException(method + " " + url + " -> " + (response.status() == 0 ? response.error()
                    : response.status() + " " + response.body()));
        }
        try {
            return response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import dev.payments.localstack.LocalStack;
import dev.payments.localstack.LocalStackOptions;
import dev.payments.localstack.RunningStack;
import dev.payments.localstack.infra.TestTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The whole system as the README's run command starts it — every service in its own JVM from its runnable jar —
 * on random ports, once per test JVM, driven through HTTP like a client would.
 */
final class SystemStack {

    private static RunningStack stack;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

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
                        // Two failed compensating cancels open an incident instead of five (about a minute of
                        // backoff): the "cancel fails every time" case then takes seconds. The rule is the same.
                        .extraArg(Component.RECONCILIATION_SERVICE, "--reconciliation.incidents.compensation-attempts=2")
                        .healthTimeout(Duration.ofMinutes(3))
                        .build());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "system-stack-stop"));
        }
        return stack;
    }

    record Response(int status, JsonNode body) {
        String text(String field) {
            return body.path(field).asText(null);
        }
    }

    static Response post(Component component, String path, Map<String, String> headers, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(get().urlOf(component) + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request.build());
    }

    static Response get(Component component, String path) {
        return get(component, path, Map.of());
    }

    static Response get(Component component, String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(get().urlOf(component) + path))
                .timeout(Duration.ofSeconds(30)).GET();
        headers.forEach(request::header);
        return send(request.build());
    }

    /**
     * The value of a Prometheus sample as scraped: the series named {@code name} whose labels contain {@code label}
     * (e.g. {@code reason="COMPENSATION_FAILED"}, or "" for any); 0 when there is none.
     */
    static double metric(Component component, String name, String label) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(get().urlOf(component) + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(30)).GET().build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body().lines()
                    .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                    .filter(line -> line.contains(label))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .findFirst().orElse(0);
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(),
                    response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String createOrder(String memberId, long amount) {
        Response created = post(Component.ORDER_SERVICE, "/api/orders", Map.of(),
                "{\"memberId\":\"" + memberId + "\",\"amount\":" + amount + ",\"currency\":\"KRW\",\"orderName\":\"Annual plan\"}");
        if (created.status() != 201) {
            throw new IllegalStateException("Order not created: " + created);
        }
        return created.text("orderId");
    }

    /** Confirms like a client: retried while payment-service has not yet seen the order (its view is eventual). */
    static Response confirm(String orderId, String memberId, long amount, String idempotencyKey) {
        String body = "{\"orderId\":\"" + orderId + "\",\"paymentKey\":\"pk-" + orderId + "\",\"amount\":" + amount + "}";
        Map<String, String> headers = Map.of("Idempotency-Key", idempotencyKey, "X-Member-Id", memberId);
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Response response = post(Component.PAYMENT_SERVICE, "/api/payments/confirm", headers, body);
        while (response.status() == 404 && System.nanoTime() < until) {
            sleep(Duration.ofMillis(100));
            response = post(Component.PAYMENT_SERVICE, "/api/payments/confirm", headers, body);
        }
        return response;
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
}

package dev.payments.ops;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands against a loopback HTTP server that records what it is asked (reconciliation-service's own tests run
 * them against the real API): the path, the method, the operator's token, the body; a refusal exits 1 with the
 * problem on stderr.
 */
class PaymentsOpsTest {

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private volatile int status = 200;
    private volatile String answer = "{\"ok\":true}";
    /** Answers 503 OVERLOADED with Retry-After: 1 to this many requests first. */
    private final java.util.concurrent.atomic.AtomicInteger overloadedFirst = new java.util.concurrent.atomic.AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Authorization") + " " + body);
            boolean overloaded = overloadedFirst.getAndDecrement() > 0;
            byte[] bytes = (overloaded ? "{\"code\":\"OVERLOADED\",\"retryAfterMs\":1000}" : answer)
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (overloaded) {
                exchange.getResponseHeaders().add("Retry-After", "1");
            }
            exchange.sendResponseHeaders(overloaded ? 503 : status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void listsAGroupsDeadLettersWithTheOperatorsToken() {
        assertThat(run("dead-letters", "list", "order-service", "--status", "WAITING", "--size", "10")).isZero();
        assertThat(requests).containsExactly(
                "GET /api/dead-letters/order-service?page=0&size=10&status=WAITING Bearer op-token ");
    }

    @Test
    void reDrivesOneLetterOrAnOrdersLetters() {
        run("dead-letters", "redrive", "order-service", "--event", "6f1c0c4e-0000-4000-8000-000000000001");
        run("dead-letters", "redrive", "order-service", "--order", "6f1c0c4e-0000-4000-8000-000000000002");
        assertThat(requests).containsExactly(
                "POST /api/dead-letters/order-service/6f1c0c4e-0000-4000-8000-000000000001/redrive Bearer op-token ",
                "POST /api/dead-letters/order-service/orders/6f1c0c4e-0000-4000-8000-000000000002/redrive"
                        + " Bearer op-token ");
    }

    @Test
    void replaysAnOrderOnlyWhenAskedToApply() {
        run("replay", "order", "6f1c0c4e-0000-4000-8000-000000000003", "--group", "order-service");
        run("replay", "order", "6f1c0c4e-0000-4000-8000-000000000003", "--group", "order-service", "--apply");
        assertThat(requests).containsExactly(
                "POST /api/replay/orders/6f1c0c4e-0000-4000-8000-000000000003 Bearer op-token "
                        + "{\"group\":\"order-service\",\"dryRun\":true}",
                "POST /api/replay/orders/6f1c0c4e-0000-4000-8000-000000000003 Bearer op-token "
                        + "{\"group\":\"order-service\",\"dryRun\":false}");
    }

    @Test
    void aRefusalExitsOneWithTheProblem() {
        status = 404;
        answer = "{\"code\":\"DEAD_LETTER_NOT_FOUND\"}";
        StringWriter err = new StringWriter();
        int exit = PaymentsOps.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
                "--url", url(), "--token", "op-token", "dead-letters", "redrive", "order-service", "--event",
                "6f1c0c4e-0000-4000-8000-000000000004");
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("404", "DEAD_LETTER_NOT_FOUND");
    }

    @Test
    void anOverloadedServiceIsAskedAgainAfterItsRetryAfter() {
        overloadedFirst.set(1);
        long start = System.nanoTime();

        assertThat(run("dead-letters", "redrive", "order-service", "--event", "6f1c0c4e-0000-4000-8000-000000000007"))
                .isZero();

        assertThat(requests).hasSize(2).allMatch(r -> r.startsWith("POST /api/dead-letters/order-service/"));
        assertThat(System.nanoTime() - start).as("waited Retry-After").isGreaterThanOrEqualTo(1_000_000_000L);
    }

    @Test
    void aServiceStillOverloadedAfterThreeAttemptsIsAProblem() {
        overloadedFirst.set(5);

        assertThat(run("dead-letters", "list", "order-service")).isEqualTo(1);
        assertThat(requests).hasSize(3);
    }

    @Test
    void eventAndOrderTogetherOrNeitherAreRefusedBeforeAnyCall() {
        assertThat(run("dead-letters", "redrive", "order-service")).isNotZero();
        assertThat(run("dead-letters", "redrive", "order-service", "--event", "6f1c0c4e-0000-4000-8000-000000000005",
                "--order", "6f1c0c4e-0000-4000-8000-000000000006")).isNotZero();
        assertThat(requests).isEmpty();
    }

    private int run(String... args) {
        String[] line = new String[args.length + 4];
        line[0] = "--url";
        line[1] = url();
        line[2] = "--token";
        line[3] = "op-token";
        System.arraycopy(args, 0, line, 4, args.length);
        return PaymentsOps.run(new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true),
                line);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }
}

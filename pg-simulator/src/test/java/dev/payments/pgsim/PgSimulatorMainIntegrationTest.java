package dev.payments.pgsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PgSimulatorMainIntegrationTest {

    @Test
    void parsesTheDocumentedOptions() {
        PgSimulatorMain main = new PgSimulatorMain();
        new CommandLine(main).parseArgs("--port", "8090", "--admin-port", "8091", "--seed", "42",
                "--callback-url", "http://127.0.0.1:8080/pg/callback", "--fault", "{\"operation\":\"query\",\"hang\":true}");

        assertThat(main.port).isEqualTo(8090);
        assertThat(main.adminPort).isEqualTo(8091);
        assertThat(main.seed).isEqualTo(42L);
        assertThat(main.faults).containsExactly("{\"operation\":\"query\",\"hang\":true}");
        assertThat(main.secretKey).isEqualTo("test_sk_simulator");
    }

    @Test
    void printsUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CommandLine(new PgSimulatorMain()).usage(new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--port", "--admin-port", "--fault", "--journal");
    }

    @Test
    void runsWithStartupFaultsUntilStopped() throws Exception {
        int port = freePort();
        int adminPort = freePort();
        Thread runner = new Thread(() -> new CommandLine(new PgSimulatorMain()).execute(
                "--port", String.valueOf(port), "--admin-port", String.valueOf(adminPort),
                "--fault", "{\"profile\":\"001\"}"));
        runner.setDaemon(true);
        runner.start();
        HttpClient http = HttpClient.newHttpClient();

        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/admin/faults")).build(),
                HttpResponse.BodyHandlers.ofString()).body().contains("\"successRate\":0.7"));

        // The command blocks until JVM shutdown; its daemon thread and servers end with the test JVM.
        assertThat(runner.isAlive()).isTrue();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

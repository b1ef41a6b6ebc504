package dev.payments.pgsim;

import dev.payments.pgsim.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar pg-simulator-<version>-exec.jar --port 8090 --admin-port 8091 [--profile 001] [--fault '<json>']}. */
@Command(name = "pg-simulator", mixinStandardHelpOptions = true,
        description = "A Toss-Payments-like payment gateway with runtime fault injection.")
public final class PgSimulatorMain implements Callable<Integer> {

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Interface to bind (0.0.0.0 for containers). Default: ${DEFAULT-VALUE}")
    String host;

    @Option(names = "--port", defaultValue = "8090", description = "Gateway API port (0 = any free port). Default: ${DEFAULT-VALUE}")
    int port;

    @Option(names = "--admin-port", defaultValue = "8091", description = "Admin API port (0 = any free port). Default: ${DEFAULT-VALUE}")
    int adminPort;

    @Option(names = "--secret-key", defaultValue = PgSimulatorConfig.DEFAULT_SECRET_KEY,
            description = "Secret key clients send as Basic base64(key + \":\"). Default: ${DEFAULT-VALUE}")
    String secretKey;

    @Option(names = "--callback-url", description = "Where asynchronous results are POSTed.")
    String callbackUrl;

    @Option(names = "--callback-secret", defaultValue = PgSimulatorConfig.DEFAULT_CALLBACK_SECRET,
            description = "HMAC-SHA256 secret for callback signatures. Default: ${DEFAULT-VALUE}")
    String callbackSecret;

    @Option(names = "--callback-max-attempts", defaultValue = "5", description = "Callback attempts in total. Default: ${DEFAULT-VALUE}")
    int callbackMaxAttempts;

    @Option(names = "--callback-backoff-ms", defaultValue = "500", description = "First callback retry delay, doubling. Default: ${DEFAULT-VALUE}")
    long callbackBackoffMs;

    @Option(names = "--seed", description = "Seed for faults that carry none (default: random, shown by GET /admin/faults).")
    Long seed;

    @Option(names = "--profile", description = "Start with a named fault profile: 001 (field report 001).")
    String profile;

    @Option(names = "--journal", description = "Keep the books (payments, transactions, billing keys) in this file"
            + " across restarts; without it they live in memory only.")
    Path journal;

    @Option(names = "--fault", description = "Start with this fault (admin JSON, repeatable), as if PUT to /admin/faults.")
    List<String> faults = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        PgSimulatorConfig config = PgSimulatorConfig.defaults()
                .withHost(host).withPort(port).withAdminPort(adminPort).withSecretKey(secretKey)
                .withCallbackUrl(callbackUrl).withCallbackSecret(callbackSecret).withSeed(seed)
                .withCallbackRetry(callbackMaxAttempts, Duration.ofMillis(callbackBackoffMs), Duration.ofSeconds(5))
                .withJournal(journal);
        PgSimulator simulator = PgSimulator.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            stopped.countDown();
        }, "pgsim-shutdown"));
        if (profile != null) {
            putFaults(simulator, "{\"profile\":" + quote(profile) + "}");
        }
        for (String fault : faults) {
            putFaults(simulator, fault);
        }
        System.out.println("pg-simulator gateway " + simulator.baseUrl() + " admin " + simulator.adminBaseUrl()
                + " faults " + new String(Json.write(simulator.faults().current()), StandardCharsets.UTF_8));
        stopped.await();
        return 0;
    }

    /** Goes through the admin API so start-up faults get exactly the admin schema and validation. */
    private static void putFaults(PgSimulator simulator, String json) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(new URI(simulator.adminBaseUrl() + "/admin/faults"))
                            .header("Content-Type", "application/json")
                            .PUT(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                simulator.close();
                throw new CommandLine.ParameterException(new CommandLine(new PgSimulatorMain()),
                        "invalid fault " + json + ": " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing faults", e);
        }
    }

    private static String quote(String text) {
        return new String(Json.write(text), StandardCharsets.UTF_8);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PgSimulatorMain()).execute(args));
    }
}

package dev.payments.pgsim;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Start-up settings. Port 0 picks a free port (read it back from {@link PgSimulator#baseUrl()}).
 * The admin API has its own port so "connection refused" can be injected on the gateway port
 * while the admin API keeps working.
 *
 * @param host interface to bind; 127.0.0.1 by default, 0.0.0.0 to serve other machines/containers
 * @param callbackUrl where asynchronous results are POSTed; null = none unless a fault names one
 * @param seed seed for faults that carry none; null = a random seed per fault (shown by GET /admin/faults)
 * @param journal the file the books are kept in across restarts (docs/pg-simulator.md, "Books across restarts");
 *                null = in memory only, gone with the process
 */
public record PgSimulatorConfig(
        String host,
        int port,
        int adminPort,
        String secretKey,
        String callbackUrl,
        String callbackSecret,
        Long seed,
        int callbackMaxAttempts,
        Duration callbackInitialBackoff,
        Duration callbackTimeout,
        Path journal) {

    public static final String DEFAULT_SECRET_KEY = "test_sk_simulator";
    public static final String DEFAULT_CALLBACK_SECRET = "test_whsec_simulator";

    public PgSimulatorConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(callbackSecret, "callbackSecret");
        Objects.requireNonNull(callbackInitialBackoff, "callbackInitialBackoff");
        Objects.requireNonNull(callbackTimeout, "callbackTimeout");
        checkPort("port", port);
        checkPort("adminPort", adminPort);
        if (port != 0 && port == adminPort) {
            throw new IllegalArgumentException("port and adminPort must differ");
        }
        if (callbackMaxAttempts < 1) {
            throw new IllegalArgumentException("callbackMaxAttempts must be >= 1");
        }
    }

    /**
     * Gateway on 8090, admin on a free port, Toss-like test key, no callback URL, random seeds,
     * callbacks tried 5 times (0.5 s, 1 s, 2 s, 4 s apart, 5 s timeout).
     */
    public static PgSimulatorConfig defaults() {
        return new PgSimulatorConfig("127.0.0.1", 8090, 0, DEFAULT_SECRET_KEY, null, DEFAULT_CALLBACK_SECRET, null, 5,
                Duration.ofMillis(500), Duration.ofSeconds(5), null);
    }

    public PgSimulatorConfig withHost(String value) {
        return new PgSimulatorConfig(value, port, adminPort, secretKey, callbackUrl, callbackSecret, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    public PgSimulatorConfig withPort(int value) {
        return new PgSimulatorConfig(host, value, adminPort, secretKey, callbackUrl, callbackSecret, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    public PgSimulatorConfig withAdminPort(int value) {
        return new PgSimulatorConfig(host, port, value, secretKey, callbackUrl, callbackSecret, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    public PgSimulatorConfig withSecretKey(String value) {
        return new PgSimulatorConfig(host, port, adminPort, value, callbackUrl, callbackSecret, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    public PgSimulatorConfig withCallbackUrl(String value) {
        return new PgSimulatorConfig(host, port, adminPort, secretKey, value, callbackSecret, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    public PgSimulatorConfig withCallbackSecret(String value) {
        return new PgSimulatorConfig(host, port, adminPort, secretKey, callbackUrl, value, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    public PgSimulatorConfig withSeed(Long value) {
        return new PgSimulatorConfig(host, port, adminPort, secretKey, callbackUrl, callbackSecret, value,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, journal);
    }

    /** Delivery policy for callbacks: attempts in total, the first backoff (doubling), per-attempt timeout. */
    public PgSimulatorConfig withCallbackRetry(int maxAttempts, Duration initialBackoff, Duration timeout) {
        return new PgSimulatorConfig(host, port, adminPort, secretKey, callbackUrl, callbackSecret, seed,
                maxAttempts, initialBackoff, timeout, journal);
    }

    public PgSimulatorConfig withJournal(Path value) {
        return new PgSimulatorConfig(host, port, adminPort, secretKey, callbackUrl, callbackSecret, seed,
                callbackMaxAttempts, callbackInitialBackoff, callbackTimeout, value);
    }

    private static void checkPort(String name, int value) {
        if (value < 0 || value > 65535) {
            throw new IllegalArgumentException(name + " must be 0-65535, got " + value);
        }
    }
}

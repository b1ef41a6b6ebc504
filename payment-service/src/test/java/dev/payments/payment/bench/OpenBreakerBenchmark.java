package dev.payments.payment.bench;

import dev.payments.contracts.OrderCreated;
import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.payment.PaymentServiceApplication;
import dev.payments.payment.application.IdempotencyKeys;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * The open breaker's latency target: with the approval breaker OPEN, {@code POST /api/payments/confirm} answers
 * {@code 503 PG_UNAVAILABLE} in p99 <= 10 ms (field report 000: 0.5 s).
 *
 * <p>The real payment-service runs in this JVM against the shared embedded PostgreSQL and Kafka and an in-process PG
 * simulator. The breaker is opened the way 000 saw it happen: the simulator hangs every call, and ten real approvals
 * (real orders, arriving over Kafka) time out. Then closed-loop clients send confirms over real HTTP (JDK HttpClient,
 * keep-alive) for orders that do not exist: admission refuses them before TX-1, so whether the order exists does not
 * matter, and the benchmark checks afterwards that nothing was written, the PG saw nothing, and the breaker stayed
 * OPEN. Each round also sends two controls through the same client, in rotating order: the service's liveness probe
 * (the Tomcat + Spring floor) and a 404 from the simulator's Netty admin port (the client + loopback floor), so the
 * machine's share of the latency can be told from the refusal path's. It also reports the server-side time (outermost
 * servlet filter), CPU time per request, the idempotency lookup that precedes admission on its own, and what a refusal
 * costs while every pool connection is held. Results and how to run it: docs/benchmarks/resilience.md.
 *
 * <p>Arguments ({@code key=value}): {@code clients=4,1} (closed-loop HTTP clients, one scenario each),
 * {@code rounds=5}, {@code perRound=4000}, {@code warmup=20000}, {@code members=1000}, {@code open=real|forced},
 * {@code timeoutMinutes=20}, and {@code set.<spring.property>=<value>} to run the service with a property changed
 * (for example {@code set.management.tracing.enabled=false}).
 */
public final class OpenBreakerBenchmark {

    private static final String DATABASE = "payments_bench";
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final String TOMCAT_WORKERS = "http-nio-";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI confirm;
    private final URI liveness;
    private final URI simulatorNotFound;
    private final int members;
    /** Minted once: the requests measure the service, not the signing of a token per request. */
    private final String[] memberTokens;
    private final Map<Probe, AtomicLong> transportErrors = new java.util.EnumMap<>(Map.of(
            Probe.REFUSED, new AtomicLong(), Probe.LIVENESS, new AtomicLong(), Probe.NETTY, new AtomicLong()));

    private OpenBreakerBenchmark(int port, int managementPort, String simulatorAdmin, int members) {
        this.confirm = URI.create("http://127.0.0.1:" + port + "/api/payments/confirm");
        this.liveness = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/liveness");
        this.simulatorNotFound = URI.create(simulatorAdmin + "/admin/bench-not-found");
        this.members = members;
        this.memberTokens = new String[members];
        for (int i = 0; i < members; i++) {
            memberTokens[i] = AuthServer.shared().member("member-bench-" + i);
        }
    }

    /** What a round sends: the measured refusal, and two controls that show the floor under it on this machine. */
    enum Probe {
        /** POST /api/payments/confirm with the breaker open: 503 PG_UNAVAILABLE. */
        REFUSED,
        /** GET /actuator/health/liveness of the same JVM (its management port): Tomcat + Spring MVC + JSON, no use case. */
        LIVENESS,
        /** A 404 from the PG simulator's admin port (Reactor Netty, no Spring): the client and loopback alone. */
        NETTY
    }

    /** One client count's rounds. */
    private static final class Results {
        final Map<Probe, List<Latencies>> client = new java.util.EnumMap<>(Probe.class);
        final List<Latencies> server = new ArrayList<>();
        final List<Double> pressure = new ArrayList<>();
        /** CPU time per request: the whole JVM (clients, service, embedded Kafka), and Tomcat's worker threads. */
        final Map<Probe, List<Double>> processCpu = new java.util.EnumMap<>(Probe.class);
        final Map<Probe, List<Double>> tomcatCpu = new java.util.EnumMap<>(Probe.class);

        Results() {
            for (Probe probe : Probe.values()) {
                client.put(probe, new ArrayList<>());
                processCpu.put(probe, new ArrayList<>());
                tomcatCpu.put(probe, new ArrayList<>());
            }
        }

        double cpu(Map<Probe, List<Double>> perProbe, Probe probe) {
            return Latencies.median(perProbe.get(probe).stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    public static void main(String[] args) throws Exception {
        BenchRun run = BenchRun.start("OpenBreakerBenchmark", args, Duration.ofMinutes(20));
        int rounds = run.integer("rounds", 5);
        int perRound = run.integer("perRound", 4000);
        int warmup = run.integer("warmup", 20_000);
        int members = run.integer("members", 1000);
        List<Integer> clientCounts = run.integers("clients", "4,1");
        boolean forced = "forced".equals(run.string("open", "real"));

        PgSimulator simulator = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0).withAdminPort(0));
        ServerTimings serverTimings = new ServerTimings(Math.max(perRound, warmup) + 1_000);
        ConfigurableApplicationContext app = startPaymentService(simulator, serverTimings, run.springOverrides());
        int exit = 0;
        try {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            int managementPort = app.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
            OpenBreakerBenchmark bench = new OpenBreakerBenchmark(port, managementPort, simulator.adminBaseUrl(), members);
            CircuitBreaker breaker = app.getBean(CircuitBreakerRegistry.class).circuitBreaker("pg-approve");
            JdbcClient jdbc = app.getBean(JdbcClient.class);
            MeterRegistry meters = app.getBean(MeterRegistry.class);

            if (forced) {
                breaker.transitionToForcedOpenState();
                System.out.println("breaker: FORCED_OPEN via CircuitBreaker.transitionToForcedOpenState()");
            } else {
                openTheRealWay(simulator, jdbc, port, breaker);
            }

            Snapshot before = Snapshot.take(jdbc, simulator, meters, breaker);
            System.out.println("before: " + before);
            // Long enough for the JIT on a busy 2-core machine: CPU per request was still falling after 5,000.
            System.out.printf(Locale.ROOT, "warm-up: %d refused confirms, %d of each control, %d clients%n", warmup,
                    warmup / 4, clientCounts.get(0));
            bench.round(Probe.REFUSED, clientCounts.get(0), warmup);
            bench.round(Probe.LIVENESS, clientCounts.get(0), warmup / 4);
            bench.round(Probe.NETTY, clientCounts.get(0), warmup / 4);
            int refusedRequests = warmup;

            Map<Integer, Results> results = new LinkedHashMap<>();
            for (int clients : clientCounts) {
                Results measured = new Results();
                int settle = Math.min(perRound, 1_000);
                bench.round(Probe.REFUSED, clients, settle); // settle the new client count, not measured
                refusedRequests += settle;
                for (int r = 0; r < rounds; r++) {
                    double pressure = BenchRun.cpuPressure();
                    System.out.printf(Locale.ROOT, "clients=%d round %d (cpu pressure avg10 %.0f %%):%n", clients,
                            r + 1, pressure);
                    measured.pressure.add(pressure);
                    for (int k = 0; k < Probe.values().length; k++) {
                        // Rotate the order each round so drift of the machine falls on every probe alike.
                        Probe probe = Probe.values()[(k + r) % Probe.values().length];
                        serverTimings.reset();
                        long processCpu = BenchRun.processCpuNanos();
                        long tomcatCpu = BenchRun.threadsCpuNanos(TOMCAT_WORKERS);
                        long[] gc = BenchRun.gc();
                        Latencies round = bench.round(probe, clients, perRound);
                        long[] gcAfter = BenchRun.gc();
                        double processPerRequest = (BenchRun.processCpuNanos() - processCpu) / (double) perRound;
                        double tomcatPerRequest = (BenchRun.threadsCpuNanos(TOMCAT_WORKERS) - tomcatCpu) / (double) perRound;
                        measured.client.get(probe).add(round);
                        measured.processCpu.get(probe).add(processPerRequest);
                        measured.tomcatCpu.get(probe).add(tomcatPerRequest);
                        System.out.printf(Locale.ROOT, "  %-8s client %s; cpu per request: JVM %s us, Tomcat workers %s us;"
                                        + " GC %d collections, %d ms%n",
                                probe, round.inMillis(), Latencies.micros(processPerRequest),
                                Latencies.micros(tomcatPerRequest), gcAfter[0] - gc[0], gcAfter[1] - gc[1]);
                        if (probe == Probe.REFUSED) {
                            refusedRequests += perRound;
                            Thread.sleep(20); // let the last request's filter finish recording
                            Latencies server = serverTimings.since(1);
                            measured.server.add(server);
                            System.out.printf(Locale.ROOT, "  %-8s server %s%n", probe, server.inMillis()
                                    .replaceAll("\\s+\\S+ req/s$", ""));
                        }
                    }
                    if (breaker.getState() == CircuitBreaker.State.CLOSED) {
                        throw new IllegalStateException("The breaker closed during the measurement");
                    }
                }
                results.put(clients, measured);
            }

            Snapshot after = Snapshot.take(jdbc, simulator, meters, breaker);
            System.out.println("after:  " + after);
            exit = report(results, before, after, refusedRequests, bench.transportErrors.get(Probe.REFUSED).get(), breaker);
            System.out.println("  requests the JDK client lost in transport (no answer, left out above): "
                    + bench.transportErrors);
            lookupAlone(app.getBean(IdempotencyKeys.class), clientCounts, rounds, perRound, members);
            withPoolExhausted(bench, app.getBean(DataSource.class),
                    app.getEnvironment().getProperty("spring.datasource.hikari.maximum-pool-size", Integer.class, 10));
        } catch (Throwable e) {
            e.printStackTrace();
            exit = 1;
        } finally {
            app.close();
            simulator.close();
        }
        System.exit(exit);
    }

    private static ConfigurableApplicationContext startPaymentService(PgSimulator simulator, ServerTimings timings,
                                                                      Map<String, String> overrides) {
        Map<String, String> properties = new LinkedHashMap<>(SharedTestInfrastructure.springProperties(DATABASE, KafkaAccess.Service.PAYMENT));
        properties.putAll(AuthServer.shared().springProperties());
        properties.put("server.port", "0");
        properties.put("management.server.port", "0");
        properties.put("spring.profiles.active", "local");
        properties.put("pg.client.base-url", simulator.baseUrl());
        // Opening phase only: the seeds' 15 s read timeout and 20 s deadline scaled to test time, as in
        // PgOutageIntegrationTest. They play no part once the breaker is open.
        properties.put("pg.client.confirm-read-timeout", "1s");
        properties.put("pg.client.query-timeout", "500ms");
        properties.put("payment.approval.deadline", "3s");
        properties.put("resilience4j.circuitbreaker.instances.pg-approve.slow-call-duration-threshold", "900ms");
        // The measured window must lie inside one open period (30 s in production): no half-open trial mid-run.
        properties.put("resilience4j.circuitbreaker.instances.pg-approve.wait-duration-in-open-state", "30m");
        // 20 000+ requests from a pool of members within a few seconds: the per-member limit (10/min) would answer
        // 429 first. Raised so every request reaches admission; the bucket lookup itself still runs.
        properties.put("payment.approval.per-member-per-minute", "1000000");
        properties.put("spring.main.banner-mode", "off");
        properties.put("logging.level.root", "WARN");
        properties.put("logging.level.dev.payments", "INFO");
        if (!overrides.isEmpty()) {
            System.out.println("service properties set for this run: " + overrides);
            properties.putAll(overrides);
        }
        // Command-line arguments, not SpringApplicationBuilder.properties(): those are default properties, the lowest
        // precedence, and application.yml's datasource URL would win over them.
        String[] commandLine = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        long started = System.nanoTime();
        ConfigurableApplicationContext app = new SpringApplicationBuilder(PaymentServiceApplication.class)
                .initializers(timings.installer("/api/payments/confirm"))
                .run(commandLine);
        System.out.printf(Locale.ROOT, "payment-service started in %.1f s; PG simulator at %s%n",
                (System.nanoTime() - started) / 1e9, simulator.baseUrl());
        return app;
    }

    /** Field report 000's silent PG: every call hangs, ten approvals time out, the breaker opens. */
    private static void openTheRealWay(PgSimulator simulator, JdbcClient jdbc, int port, CircuitBreaker breaker)
            throws Exception {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            orders.add(PaymentTestSupport.orderCreated(jdbc, "bench-opener", 1_000));
        }
        simulator.faults().set(FaultSpec.none(Operation.ALL).withHang(true));
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(orders.size());
        try {
            List<Future<PaymentTestSupport.Response>> answers = new ArrayList<>();
            for (int i = 0; i < orders.size(); i++) {
                OrderCreated order = orders.get(i);
                String key = "bench-open-" + i;
                answers.add(pool.submit(() -> PaymentTestSupport.confirm(port, order, key)));
            }
            for (Future<PaymentTestSupport.Response> answer : answers) {
                PaymentTestSupport.Response response = answer.get();
                if (response.status() != 202) {
                    throw new IllegalStateException("Expected 202 PENDING from a silent PG, got " + response.status()
                            + " " + response.body());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        // On a starved machine the simulator may register a timed-out status query after the client gave up on it:
        // let the ten arrive before the "before" snapshot, so they are not taken for traffic of the refusals.
        long settleUntil = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (simulator.stats().queries() < orders.size() && System.nanoTime() < settleUntil) {
            Thread.sleep(50);
        }
        if (breaker.getState() != CircuitBreaker.State.OPEN) {
            throw new IllegalStateException("Ten timed-out approvals did not open the breaker: " + breaker.getState()
                    + " " + breaker.getMetrics().getFailureRate() + " %");
        }
        System.out.printf(Locale.ROOT, "breaker: OPEN after 10 approvals timed out against a hanging PG (%.1f s); "
                + "the PG keeps hanging during the measurement%n", (System.nanoTime() - started) / 1e9);
    }

    /** One closed-loop round: {@code clients} threads share {@code total} requests; returns their latencies. */
    private Latencies round(Probe probe, int clients, int total) throws Exception {
        long[][] samples = new long[clients][];
        int[] counts = new int[clients];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> work = new ArrayList<>();
            long started = System.nanoTime();
            for (int c = 0; c < clients; c++) {
                int client = c;
                int share = total / clients + (c < total % clients ? 1 : 0);
                samples[c] = new long[share];
                work.add(pool.submit(() -> {
                    counts[client] = clientLoop(probe, samples[client]);
                    return null;
                }));
            }
            for (Future<?> w : work) {
                w.get();
            }
            long wall = System.nanoTime() - started;
            long[] all = new long[total];
            int n = 0;
            for (int c = 0; c < clients; c++) {
                System.arraycopy(samples[c], 0, all, n, counts[c]);
                n += counts[c];
            }
            return Latencies.of(all, n, wall);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Sends {@code into.length} requests one after the other; returns how many got an answer. */
    private int clientLoop(Probe probe, long[] into) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int answered = 0;
        for (int i = 0; i < into.length; i++) {
            HttpRequest request = request(probe, random);
            long t0 = System.nanoTime();
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                // The JDK 17 client can lose an exchange on a reused keep-alive connection (JDK-8338569): "header
                // parser received no bytes", or no answer until the timeout. A client fault, not the service's:
                // counted and reported, left out of the percentiles.
                transportErrors.get(probe).incrementAndGet();
                continue;
            }
            into[answered++] = System.nanoTime() - t0;
            check(probe, response);
        }
        return answered;
    }

    private HttpRequest request(Probe probe, ThreadLocalRandom random) {
        return switch (probe) {
            case REFUSED -> {
                UUID orderId = new UUID(random.nextLong(), random.nextLong());
                yield HttpRequest.newBuilder(confirm)
                        .timeout(REQUEST_TIMEOUT)
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + memberTokens[random.nextInt(members)])
                        .header("Idempotency-Key", UUID.randomUUID().toString())
                        .POST(HttpRequest.BodyPublishers.ofString(
                                PaymentTestSupport.confirmBody(orderId, "pk-" + orderId, 1_000)))
                        .build();
            }
            case LIVENESS -> HttpRequest.newBuilder(liveness).timeout(REQUEST_TIMEOUT).GET().build();
            case NETTY -> HttpRequest.newBuilder(simulatorNotFound).timeout(REQUEST_TIMEOUT).GET().build();
        };
    }

    private static void check(Probe probe, HttpResponse<String> response) {
        boolean expected = switch (probe) {
            case REFUSED -> response.statusCode() == 503 && response.body().contains("\"code\":\"PG_UNAVAILABLE\"")
                    && response.headers().firstValue("Retry-After").isPresent();
            case LIVENESS -> response.statusCode() == 200;
            case NETTY -> response.statusCode() == 404;
        };
        if (!expected) {
            throw new IllegalStateException(probe + ": unexpected answer " + response.statusCode() + " "
                    + response.headers().map() + " " + response.body());
        }
    }

    private static int report(Map<Integer, Results> results, Snapshot before, Snapshot after, int requests,
                              long lostInTransport, CircuitBreaker breaker) {
        System.out.println();
        System.out.println("latency, client-side (send to body read) unless marked server, median of rounds (ms):");
        boolean met = true;
        for (Map.Entry<Integer, Results> entry : results.entrySet()) {
            Results r = entry.getValue();
            List<Latencies> refused = r.client.get(Probe.REFUSED);
            System.out.printf(Locale.ROOT, "  clients=%d, %d rounds x %d requests per probe, cpu pressure avg10 median %.0f %%:%n",
                    entry.getKey(), refused.size(), refused.get(0).count(),
                    Latencies.median(r.pressure.stream().mapToDouble(Double::doubleValue).toArray()));
            line("503 PG_UNAVAILABLE", refused, true);
            line("  same, server-side", r.server, false);
            line("liveness control", r.client.get(Probe.LIVENESS), true);
            line("netty 404 control", r.client.get(Probe.NETTY), true);
            System.out.printf(Locale.ROOT, "    cpu per request (us), JVM / Tomcat workers: 503 %s / %s, liveness %s / %s, "
                            + "netty 404 %s / -%n",
                    Latencies.micros(r.cpu(r.processCpu, Probe.REFUSED)), Latencies.micros(r.cpu(r.tomcatCpu, Probe.REFUSED)),
                    Latencies.micros(r.cpu(r.processCpu, Probe.LIVENESS)), Latencies.micros(r.cpu(r.tomcatCpu, Probe.LIVENESS)),
                    Latencies.micros(r.cpu(r.processCpu, Probe.NETTY)));
            double[] p50OverLiveness = new double[refused.size()];
            double[] p99OverLiveness = new double[refused.size()];
            for (int i = 0; i < refused.size(); i++) {
                p50OverLiveness[i] = refused.get(i).p50() - r.client.get(Probe.LIVENESS).get(i).p50();
                p99OverLiveness[i] = refused.get(i).p99() - r.client.get(Probe.LIVENESS).get(i).p99();
            }
            double p99 = Latencies.median(refused, Latencies::p99);
            System.out.printf(Locale.ROOT, "    503 over the liveness control, median of per-round differences: "
                            + "p50 %s ms, p99 %s ms%n", Latencies.millis(Latencies.median(p50OverLiveness)),
                    Latencies.millis(Latencies.median(p99OverLiveness)));
            System.out.printf(Locale.ROOT, "    target 503 p99 <= 10 ms (client-side): %s (%s ms; best round %s, worst %s)%n",
                    p99 <= 10_000_000 ? "MET" : "MISSED", Latencies.millis(p99),
                    Latencies.millis(refused.stream().mapToLong(Latencies::p99).min().orElseThrow()),
                    Latencies.millis(refused.stream().mapToLong(Latencies::p99).max().orElseThrow()));
            met &= p99 <= 10_000_000;
        }
        long refused = after.notPermitted - before.notPermitted;
        // Minus the two count queries the "after" snapshot made before reading the counter.
        long borrowed = after.connectionsAcquired - before.connectionsAcquired - 2;
        System.out.printf(Locale.ROOT, "checks over all %d requests after the breaker opened:%n", requests);
        System.out.printf(Locale.ROOT, "  payments rows %d -> %d, idempotency_keys rows %d -> %d (must not grow)%n",
                before.payments, after.payments, before.idempotencyKeys, after.idempotencyKeys);
        System.out.printf(Locale.ROOT, "  PG confirms %d -> %d, status queries %d -> %d (must not grow)%n",
                before.pgConfirms, after.pgConfirms, before.pgQueries, after.pgQueries);
        System.out.printf(Locale.ROOT, "  breaker %s, calls not permitted +%d, payment_approval{pg_unavailable} +%d%n",
                breaker.getState(), refused, Math.round(after.unavailable - before.unavailable));
        System.out.printf(Locale.ROOT, "  Hikari connections acquired +%d (%.2f per request): the idempotency lookup "
                + "runs before admission%n", borrowed, borrowed / (double) requests);
        boolean clean = after.payments == before.payments && after.idempotencyKeys == before.idempotencyKeys
                && after.pgConfirms == before.pgConfirms && after.pgQueries == before.pgQueries
                && refused >= requests - lostInTransport && refused <= requests
                && breaker.getState() != CircuitBreaker.State.CLOSED;
        System.out.println("  nothing written, no PG traffic, every request refused by the breaker: " + clean);
        System.out.println("verdict: 503 p99 <= 10 ms " + (met ? "MET for every client count" : "MISSED for some client count"));
        return clean ? 0 : 1;
    }

    /**
     * The refusal path is not independent of the database: every connection of the pool is held for one second (as a
     * slow or stuck database would) while a few refused confirms arrive. Each of them waits for a connection.
     */
    private static void withPoolExhausted(OpenBreakerBenchmark bench, DataSource dataSource, int poolSize)
            throws Exception {
        long holdMillis = 1_000;
        List<Connection> held = new ArrayList<>();
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < poolSize; i++) {
                held.add(dataSource.getConnection());
            }
            Future<Latencies> refused = sender.submit(() -> bench.round(Probe.REFUSED, 4, 4));
            Thread.sleep(holdMillis);
            for (Connection connection : held) {
                connection.close();
            }
            held.clear();
            Latencies latencies = refused.get();
            System.out.println();
            System.out.printf(Locale.ROOT, "with all %d pool connections held for %d ms (a stalled database), one refused "
                            + "confirm from each of 4 clients: min=%s p50=%s max=%s ms, all 503 PG_UNAVAILABLE%n", poolSize,
                    holdMillis, Latencies.millis(latencies.min()), Latencies.millis(latencies.p50()),
                    Latencies.millis(latencies.max()));
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
            sender.shutdownNow();
        }
    }

    private static void line(String label, List<Latencies> rounds, boolean rate) {
        System.out.printf(Locale.ROOT, "    %-20s p50=%s p90=%s p99=%s p99.9=%s max=%s%s%n", label,
                Latencies.millis(Latencies.median(rounds, Latencies::p50)),
                Latencies.millis(Latencies.median(rounds, Latencies::p90)),
                Latencies.millis(Latencies.median(rounds, Latencies::p99)),
                Latencies.millis(Latencies.median(rounds, Latencies::p999)),
                Latencies.millis(Latencies.median(rounds, Latencies::max)),
                rate ? String.format(Locale.ROOT, "  %.0f req/s", Latencies.median(rounds, Latencies::perSecond)) : "");
    }

    /**
     * The one database statement on the refusal path, alone: the idempotency lookup ConfirmPayment makes before
     * admission. Shows how much of a 503's time is that lookup.
     */
    private static void lookupAlone(IdempotencyKeys idempotency, List<Integer> clientCounts, int rounds, int perRound,
                                    int members) throws Exception {
        System.out.println();
        System.out.println("the idempotency lookup alone (IdempotencyKeys.find, in-process, one SELECT), median of rounds:");
        for (int clients : clientCounts) {
            List<Latencies> measured = new ArrayList<>();
            for (int r = 0; r <= rounds; r++) {
                long[][] samples = new long[clients][perRound / clients];
                ExecutorService pool = Executors.newFixedThreadPool(clients);
                AtomicLong found = new AtomicLong();
                long started = System.nanoTime();
                try {
                    List<Future<?>> work = new ArrayList<>();
                    for (int c = 0; c < clients; c++) {
                        long[] into = samples[c];
                        work.add(pool.submit(() -> {
                            ThreadLocalRandom random = ThreadLocalRandom.current();
                            for (int i = 0; i < into.length; i++) {
                                MemberId member = new MemberId("member-bench-" + random.nextInt(members));
                                String key = UUID.randomUUID().toString();
                                long t0 = System.nanoTime();
                                boolean present = idempotency.find(member, key).isPresent();
                                into[i] = System.nanoTime() - t0;
                                found.addAndGet(present ? 1 : 0);
                            }
                            return null;
                        }));
                    }
                    for (Future<?> w : work) {
                        w.get();
                    }
                } finally {
                    pool.shutdownNow();
                }
                long wall = System.nanoTime() - started;
                long[] all = new long[clients * (perRound / clients)];
                for (int c = 0; c < clients; c++) {
                    System.arraycopy(samples[c], 0, all, c * (perRound / clients), samples[c].length);
                }
                if (r > 0) { // round 0 warms up
                    measured.add(Latencies.of(all, all.length, wall));
                }
            }
            System.out.printf(Locale.ROOT, "  clients=%d: p50=%s p90=%s p99=%s ms, %.0f lookups/s%n", clients,
                    Latencies.millis(Latencies.median(measured, Latencies::p50)),
                    Latencies.millis(Latencies.median(measured, Latencies::p90)),
                    Latencies.millis(Latencies.median(measured, Latencies::p99)),
                    Latencies.median(measured, Latencies::perSecond));
        }
    }

    /** What must not change while the breaker refuses, and the counters that show it refused. */
    private record Snapshot(long payments, long idempotencyKeys, long pgConfirms, long pgQueries, long notPermitted,
                            double unavailable, long connectionsAcquired) {

        static Snapshot take(JdbcClient jdbc, PgSimulator simulator, MeterRegistry meters, CircuitBreaker breaker) {
            Timer acquire = meters.find("hikaricp.connections.acquire").timer();
            Counter unavailable = meters.find("payment.approval").tag("outcome", "pg_unavailable").counter();
            return new Snapshot(
                    jdbc.sql("SELECT count(*) FROM payments").query(Long.class).single(),
                    jdbc.sql("SELECT count(*) FROM idempotency_keys").query(Long.class).single(),
                    simulator.stats().confirmsReceived(), simulator.stats().queries(),
                    breaker.getMetrics().getNumberOfNotPermittedCalls(),
                    unavailable == null ? Double.NaN : unavailable.count(),
                    acquire == null ? -1 : acquire.count());
        }
    }
}

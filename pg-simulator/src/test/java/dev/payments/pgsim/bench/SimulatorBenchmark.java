package dev.payments.pgsim.bench;

import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.resources.ConnectionProvider;

/**
 * Measures the simulator the way a drill uses it, against a child JVM running the exec jar on
 * 127.0.0.1 (so the simulator's own memory and threads can be read from /proc, apart from the
 * client's). Every loop is bounded in count and time.
 *
 * <pre>
 * mvn -q -f pg-simulator/pom.xml package -DskipTests
 * java -cp pg-simulator/target/test-classes:pg-simulator/target/pg-simulator-0.1.0-SNAPSHOT-exec.jar \
 *      [-Dbench.childJvm="-Xmx128m"] dev.payments.pgsim.bench.SimulatorBenchmark \
 *      [execJar] [hangs=2000] [fastRequests=20000] [concurrency=32] [rounds=5]
 * </pre>
 */
public final class SimulatorBenchmark {

    private static final String AUTH = "Basic dGVzdF9za19zaW11bGF0b3I6";

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "pg-simulator/target/pg-simulator-0.1.0-SNAPSHOT-exec.jar");
        int hangs = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int fastRequests = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        int concurrency = args.length > 3 ? Integer.parseInt(args[3]) : 32;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        if (!Files.exists(jar)) {
            throw new IllegalArgumentException("build the exec jar first: " + jar.toAbsolutePath());
        }

        measureInProcessStart();
        int port = freePort();
        int adminPort = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String childJvmOptions = System.getProperty("bench.childJvm", "").trim();
        if (!childJvmOptions.isEmpty()) {
            command.addAll(List.of(childJvmOptions.split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "--port", String.valueOf(port), "--admin-port", String.valueOf(adminPort)));
        System.out.println("simulator: " + String.join(" ", command));
        Process child = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            Bench bench = new Bench(child.pid(), port, adminPort);
            bench.awaitUp();
            bench.fastConfirms(5_000, concurrency); // warm-up: JIT both sides
            bench.fastConfirmsNetty(5_000, concurrency);
            bench.report("idle after warm-up");
            bench.hangs(hangs);
            bench.slow(hangs, Duration.ofSeconds(2));
            for (String clientKind : List.of("jdk", "netty")) {
                List<double[]> results = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    bench.admin("POST", "/admin/reset", "");
                    double[] r = clientKind.equals("jdk")
                            ? bench.fastConfirms(fastRequests, concurrency)
                            : bench.fastConfirmsNetty(fastRequests, concurrency);
                    results.add(r);
                    System.out.printf("fast confirms (%s client) round %d: %,d requests, concurrency %d: %.0f req/s, "
                            + "median %.2f ms, p99 %.2f ms%n", clientKind, round, fastRequests, concurrency, r[0], r[1], r[2]);
                }
                System.out.printf("fast confirms (%s client), median of %d rounds: %.0f req/s, median latency %.2f ms, "
                        + "p99 %.2f ms%n", clientKind, rounds, median(results, 0), median(results, 1), median(results, 2));
            }
            bench.report("after the fast rounds");
        } finally {
            child.destroy();
            child.waitFor();
        }
    }

    private static void measureInProcessStart() {
        for (int i = 1; i <= 3; i++) {
            long started = System.nanoTime();
            PgSimulator simulator = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0));
            long startMs = (System.nanoTime() - started) / 1_000_000;
            started = System.nanoTime();
            simulator.close();
            long closeMs = (System.nanoTime() - started) / 1_000_000;
            System.out.printf("in-process start #%d: %d ms (close %d ms)%n", i, startMs, closeMs);
        }
    }

    /** One benchmark session against the child simulator. */
    private static final class Bench {
        private final long pid;
        private final int port;
        private final int adminPort;
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final AtomicInteger orders = new AtomicInteger();

        Bench(long pid, int port, int adminPort) {
            this.pid = pid;
            this.port = port;
            this.adminPort = adminPort;
        }

        void awaitUp() throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    if (admin("GET", "/admin/health", null).contains("UP")) {
                        return;
                    }
                } catch (IOException e) {
                    Thread.sleep(100); // not listening yet
                }
            }
            throw new IllegalStateException("simulator did not start within 20 s");
        }

        void hangs(int count) throws Exception {
            admin("PUT", "/admin/faults", "{\"operation\":\"confirm\",\"hang\":true}");
            List<Socket> sockets = new ArrayList<>();
            long started = System.nanoTime();
            try {
                for (int i = 0; i < count; i++) {
                    sockets.add(rawConfirm());
                }
                awaitInFlight(count, Duration.ofSeconds(30));
                System.out.printf("%,d hanging confirms held after %d ms%n", count, (System.nanoTime() - started) / 1_000_000);
                report(count + " requests hanging");
                long queryStarted = System.nanoTime();
                String status = get("/v1/payments/nobody");
                System.out.printf("a query while they hang: %s in %.1f ms%n", status.contains("NOT_FOUND_PAYMENT") ? "404" : status,
                        (System.nanoTime() - queryStarted) / 1e6);
                long clearStarted = System.nanoTime();
                admin("DELETE", "/admin/faults", null);
                awaitInFlight(0, Duration.ofSeconds(30));
                System.out.printf("clearing the hang closed all %,d in %d ms%n", count, (System.nanoTime() - clearStarted) / 1_000_000);
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        }

        void slow(int count, Duration latency) throws Exception {
            admin("PUT", "/admin/faults", "{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":" + latency.toMillis() + "}}");
            long started = System.nanoTime();
            List<CompletableFuture<HttpResponse<Void>>> responses = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                responses.add(http.sendAsync(confirm(Duration.ofSeconds(30)), HttpResponse.BodyHandlers.discarding()));
            }
            awaitInFlight(count, Duration.ofSeconds(30));
            report(count + " requests in a " + latency.toMillis() + " ms latency");
            long ok = responses.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 200).count();
            System.out.printf("%,d concurrent confirms at %d ms latency: %,d x 200, all done after %d ms%n", count,
                    latency.toMillis(), ok, (System.nanoTime() - started) / 1_000_000);
            admin("DELETE", "/admin/faults", null);
        }

        /** @return {requests/s, median ms, p99 ms} */
        double[] fastConfirms(int count, int concurrency) throws InterruptedException {
            Semaphore permits = new Semaphore(concurrency);
            long[] latencies = new long[count];
            AtomicInteger failures = new AtomicInteger();
            long started = System.nanoTime();
            for (int i = 0; i < count; i++) {
                permits.acquire();
                int index = i;
                long sent = System.nanoTime();
                http.sendAsync(confirm(Duration.ofSeconds(10)), HttpResponse.BodyHandlers.discarding())
                        .whenComplete((response, error) -> {
                            latencies[index] = System.nanoTime() - sent;
                            if (error != null || response.statusCode() != 200) {
                                failures.incrementAndGet();
                            }
                            permits.release();
                        });
            }
            permits.acquire(concurrency);
            double seconds = (System.nanoTime() - started) / 1e9;
            if (failures.get() > 0) {
                throw new IllegalStateException(failures.get() + " fast confirms failed");
            }
            Arrays.sort(latencies);
            return new double[] {count / seconds, latencies[count / 2] / 1e6, latencies[(int) (count * 0.99)] / 1e6};
        }

        /**
         * The same loop with Reactor Netty's client on a fixed pool of {@code concurrency}
         * connections: it costs the shared 2 cores less than the JDK client, so more of the
         * machine is left to the simulator.
         */
        double[] fastConfirmsNetty(int count, int concurrency) {
            ConnectionProvider pool = ConnectionProvider.create("bench", concurrency);
            try {
                reactor.netty.http.client.HttpClient client = reactor.netty.http.client.HttpClient.create(pool)
                        .baseUrl("http://127.0.0.1:" + port)
                        .headers(h -> h.set("Authorization", AUTH).set("Content-Type", "application/json"));
                long[] latencies = new long[count];
                AtomicInteger failures = new AtomicInteger();
                long started = System.nanoTime();
                Flux.range(0, count)
                        .flatMap(i -> {
                            long sent = System.nanoTime();
                            return client.post().uri("/v1/payments/confirm")
                                    .send(ByteBufFlux.fromString(Mono.just(body())))
                                    .responseSingle((response, content) -> content.then(Mono.just(response.status().code())))
                                    .doOnNext(status -> {
                                        latencies[i] = System.nanoTime() - sent;
                                        if (status != 200) {
                                            failures.incrementAndGet();
                                        }
                                    });
                        }, concurrency)
                        .blockLast(Duration.ofMinutes(2));
                double seconds = (System.nanoTime() - started) / 1e9;
                if (failures.get() > 0) {
                    throw new IllegalStateException(failures.get() + " fast confirms failed");
                }
                Arrays.sort(latencies);
                return new double[] {count / seconds, latencies[count / 2] / 1e6, latencies[(int) (count * 0.99)] / 1e6};
            } finally {
                pool.disposeLater().block(Duration.ofSeconds(5));
            }
        }

        void report(String phase) throws IOException, InterruptedException {
            String status = Files.readString(Path.of("/proc", String.valueOf(pid), "status"));
            System.out.printf("simulator process, %s: RSS %s MB, threads %s, heap used after GC %s%n", phase,
                    kilobytes(status, "VmRSS") / 1024, field(status, "Threads"), heapUsedAfterGc());
        }

        private String heapUsedAfterGc() throws IOException, InterruptedException {
            String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
            run(jcmd, String.valueOf(pid), "GC.run");
            String info = run(jcmd, String.valueOf(pid), "GC.heap_info");
            Matcher used = Pattern.compile("total \\d+K, used (\\d+)K").matcher(info);
            return used.find() ? Long.parseLong(used.group(1)) / 1024 + " MB" : "n/a";
        }

        private static String run(String... command) throws IOException, InterruptedException {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return output;
        }

        private Socket rawConfirm() throws IOException {
            byte[] body = body().getBytes(StandardCharsets.UTF_8);
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/payments/confirm HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + AUTH
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return socket;
        }

        private HttpRequest confirm(Duration timeout) {
            return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/payments/confirm"))
                    .timeout(timeout)
                    .header("Authorization", AUTH)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body()))
                    .build();
        }

        private String body() {
            int n = orders.incrementAndGet();
            return "{\"paymentKey\":\"pk-" + n + "\",\"orderId\":\"order-" + n + "\",\"amount\":1000}";
        }

        private void awaitInFlight(long expected, Duration within) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + within.toNanos();
            Pattern inFlight = Pattern.compile("\"inFlight\":(\\d+)");
            while (System.nanoTime() < deadline) {
                Matcher m = inFlight.matcher(admin("GET", "/admin/stats", null));
                if (m.find() && Long.parseLong(m.group(1)) == expected) {
                    return;
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException("in-flight never reached " + expected);
        }

        private String get(String path) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("Authorization", AUTH)
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
        }

        String admin(String method, String path, String body) throws IOException, InterruptedException {
            HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body);
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path))
                    .timeout(Duration.ofSeconds(10)).method(method, publisher).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        }
    }

    private static double median(List<double[]> results, int index) {
        double[] values = results.stream().mapToDouble(r -> r[index]).sorted().toArray();
        return values[values.length / 2];
    }

    private static long kilobytes(String procStatus, String name) {
        return Long.parseLong(field(procStatus, name).replace("kB", "").trim());
    }

    private static String field(String procStatus, String name) {
        Matcher m = Pattern.compile("^" + name + ":\\s*(.+)$", Pattern.MULTILINE).matcher(procStatus);
        return m.find() ? m.group(1).trim() : "?";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

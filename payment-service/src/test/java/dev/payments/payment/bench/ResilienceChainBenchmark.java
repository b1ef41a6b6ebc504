package dev.payments.payment.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.adapter.out.pg.PgClientProperties;
import dev.payments.payment.adapter.out.pg.ResilientPaymentGateway;
import dev.payments.payment.adapter.out.pg.TossPgClient;
import dev.payments.payment.application.PaymentGateway.Admission;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Issue 4's second latency target: the resilience chain (bulkhead -> breaker -> retry -> timeouts, i.e.
 * {@code ResilientPaymentGateway.admit()} + {@code approve(...)} + closing the permit) adds at most 1 ms p99 over a
 * direct {@code TossPgClient.confirm(...)}.
 *
 * <p>No Spring context: the client and the gateway are wired from payment-service's application.yml
 * ({@link ApplicationYmlChain}) against an in-process PG simulator with no latency and no faults. Every call confirms a
 * fresh order (the simulator approves an order once). Direct and chained rounds alternate, A-B then B-A, so drift of
 * this shared machine falls on both sides; the simulator's books are emptied between rounds, outside the timing.
 *
 * <p>Two scenarios: {@code network} (the real client over loopback HTTP: what a caller sees) and {@code in-memory}
 * (the same classes with a client that answers DONE at once: the chain's own cost, without the network noise that
 * dominates the first). Arguments ({@code key=value}): {@code callers=1,4} (threads calling at once),
 * {@code rounds=10}, {@code perRound=5000}, {@code warmupRounds=3}, {@code memoryPerRound=200000},
 * {@code timeoutMinutes=10}. Results and how to run it: docs/benchmarks/resilience.md.
 */
public final class ResilienceChainBenchmark {

    private static final long AMOUNT = 1_000;

    private final ApplicationYmlChain chain;
    private final TossPgClient client;
    private final ResilientPaymentGateway gateway;
    private final Duration directTimeout;
    private volatile long sink;

    private ResilienceChainBenchmark(ApplicationYmlChain chain, TossPgClient client) {
        this.chain = chain;
        this.client = client;
        this.gateway = chain.gateway(client);
        this.directTimeout = chain.pgClient.confirmReadTimeout();
    }

    public static void main(String[] args) throws Exception {
        BenchRun run = BenchRun.start("ResilienceChainBenchmark", args, Duration.ofMinutes(10));
        int rounds = run.integer("rounds", 10);
        int perRound = run.integer("perRound", 5000);
        int warmupRounds = run.integer("warmupRounds", 3);
        int memoryPerRound = run.integer("memoryPerRound", 200_000);
        List<Integer> callerCounts = run.integers("callers", "1,4");

        int exit = 0;
        PgSimulator simulator = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0).withAdminPort(0));
        try {
            ApplicationYmlChain network = ApplicationYmlChain.load(simulator.baseUrl());
            System.out.println("chain from application.yml: " + network.describe());
            System.out.println("PG simulator at " + simulator.baseUrl() + ", no latency, no faults");
            ResilienceChainBenchmark overHttp = new ResilienceChainBenchmark(network,
                    new TossPgClient(network.pgClient, network.json));
            for (int callers : callerCounts) {
                exit |= overHttp.compare("network", callers, warmupRounds, rounds, perRound, simulator);
            }
            long approvals = simulator.stats().approvals();
            System.out.println("simulator approvals booked in total: " + approvals);

            ApplicationYmlChain memory = ApplicationYmlChain.load(simulator.baseUrl());
            ResilienceChainBenchmark inMemory = new ResilienceChainBenchmark(memory,
                    new AnswersAtOnce(memory.pgClient, memory.json));
            for (int callers : callerCounts) {
                exit |= inMemory.compare("in-memory", callers, warmupRounds, rounds, memoryPerRound, null);
            }
            System.out.println("(sink " + (overHttp.sink ^ inMemory.sink) + ")");
        } catch (Throwable e) {
            e.printStackTrace();
            exit = 1;
        } finally {
            simulator.close();
        }
        System.exit(exit);
    }

    /** Warm-up, then {@code rounds} pairs of rounds, A-B and B-A alternately; prints both and their difference. */
    private int compare(String scenario, int callers, int warmupRounds, int rounds, int perRound, PgSimulator simulator)
            throws Exception {
        for (int r = 0; r < warmupRounds; r++) {
            measure(false, callers, perRound, simulator);
            measure(true, callers, perRound, simulator);
        }
        List<Latencies> direct = new ArrayList<>();
        List<Latencies> chained = new ArrayList<>();
        double[] p50Differences = new double[rounds];
        double[] p99Differences = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            Latencies d;
            Latencies c;
            if (r % 2 == 0) {
                d = measure(false, callers, perRound, simulator);
                c = measure(true, callers, perRound, simulator);
            } else {
                c = measure(true, callers, perRound, simulator);
                d = measure(false, callers, perRound, simulator);
            }
            direct.add(d);
            chained.add(c);
            p50Differences[r] = c.p50() - d.p50();
            p99Differences[r] = c.p99() - d.p99();
            System.out.printf(Locale.ROOT, "%s callers=%d round %d%n  direct %s%n  chain  %s%n", scenario, callers, r + 1,
                    d.inMicros(), c.inMicros());
        }
        double directP50 = Latencies.median(direct, Latencies::p50);
        double directP99 = Latencies.median(direct, Latencies::p99);
        double chainP50 = Latencies.median(chained, Latencies::p50);
        double chainP99 = Latencies.median(chained, Latencies::p99);
        double addedP99 = Latencies.median(p99Differences);
        System.out.printf(Locale.ROOT, "%n%s, callers=%d, %d rounds x %d calls each side, median of rounds (us):%n",
                scenario, callers, rounds, perRound);
        System.out.printf(Locale.ROOT, "  direct TossPgClient.confirm    p50=%s p90=%s p99=%s p99.9=%s  %.0f calls/s%n",
                Latencies.micros(directP50), Latencies.micros(Latencies.median(direct, Latencies::p90)),
                Latencies.micros(directP99), Latencies.micros(Latencies.median(direct, Latencies::p999)),
                Latencies.median(direct, Latencies::perSecond));
        System.out.printf(Locale.ROOT, "  admit + approve + close        p50=%s p90=%s p99=%s p99.9=%s  %.0f calls/s%n",
                Latencies.micros(chainP50), Latencies.micros(Latencies.median(chained, Latencies::p90)),
                Latencies.micros(chainP99), Latencies.micros(Latencies.median(chained, Latencies::p999)),
                Latencies.median(chained, Latencies::perSecond));
        System.out.printf(Locale.ROOT, "  added by the chain: p50 %s us (difference of medians %s), p99 %s us "
                        + "(difference of medians %s; rounds range %s .. %s)%n",
                Latencies.micros(Latencies.median(p50Differences)), Latencies.micros(chainP50 - directP50),
                Latencies.micros(addedP99), Latencies.micros(chainP99 - directP99),
                Latencies.micros(min(p99Differences)), Latencies.micros(max(p99Differences)));
        boolean healthy = chain.breaker.getState().name().equals("CLOSED")
                && chain.bulkhead.getMetrics().getAvailableConcurrentCalls()
                == chain.bulkhead.getBulkheadConfig().getMaxConcurrentCalls();
        System.out.printf(Locale.ROOT, "  every call approved (checked per call); breaker %s, failure rate %.1f %%, "
                        + "bulkhead slots free %d/%d%n",
                chain.breaker.getState(), chain.breaker.getMetrics().getFailureRate(),
                chain.bulkhead.getMetrics().getAvailableConcurrentCalls(),
                chain.bulkhead.getBulkheadConfig().getMaxConcurrentCalls());
        System.out.printf(Locale.ROOT, "  verdict: chain adds p99 %s us <= 1000 us: %s%n%n", Latencies.micros(addedP99),
                addedP99 <= 1_000_000 ? "MET" : "MISSED");
        return healthy ? 0 : 1;
    }

    private Latencies measure(boolean throughChain, int callers, int total, PgSimulator simulator) throws Exception {
        if (simulator != null) {
            simulator.resetLedger();
        }
        System.gc(); // outside the timing: start every round from a similar heap
        long[][] samples = new long[callers][];
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<?>> work = new ArrayList<>();
            long started = System.nanoTime();
            for (int c = 0; c < callers; c++) {
                long[] into = new long[total / callers];
                samples[c] = into;
                work.add(pool.submit(() -> {
                    if (throughChain) {
                        chained(into);
                    } else {
                        direct(into);
                    }
                    return null;
                }));
            }
            for (Future<?> w : work) {
                w.get();
            }
            long wall = System.nanoTime() - started;
            int n = samples[0].length * callers;
            long[] all = new long[n];
            for (int c = 0; c < callers; c++) {
                System.arraycopy(samples[c], 0, all, c * samples[0].length, samples[0].length);
            }
            return Latencies.of(all, n, wall);
        } finally {
            pool.shutdownNow();
        }
    }

    private void direct(long[] into) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long acc = 0;
        for (int i = 0; i < into.length; i++) {
            String orderId = new UUID(random.nextLong(), random.nextLong()).toString();
            String paymentKey = "pk-" + orderId;
            String idempotencyKey = UUID.randomUUID().toString();
            long t0 = System.nanoTime();
            TossPgClient.ConfirmAnswer answer = client.confirm(paymentKey, orderId, AMOUNT, idempotencyKey, directTimeout);
            into[i] = System.nanoTime() - t0;
            if (!(answer instanceof TossPgClient.ConfirmAnswer.Accepted accepted)
                    || !"DONE".equals(accepted.payment().status())) {
                throw new IllegalStateException("Expected DONE, got " + answer);
            }
            acc += accepted.payment().lastTransactionKey().length();
        }
        sink += acc;
    }

    private void chained(long[] into) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long acc = 0;
        for (int i = 0; i < into.length; i++) {
            OrderId orderId = new OrderId(new UUID(random.nextLong(), random.nextLong()));
            ApprovalRequest request = new ApprovalRequest("pk-" + orderId, orderId, AMOUNT, UUID.randomUUID().toString());
            Instant deadline = Instant.now().plus(chain.approvalDeadline); // ConfirmPayment sets it at request start
            long t0 = System.nanoTime();
            PgOutcome outcome;
            Admission admission = gateway.admit();
            if (!(admission instanceof Admission.Granted granted)) {
                throw new IllegalStateException("Admission refused: " + admission);
            }
            try (granted) {
                outcome = gateway.approve(granted, request, deadline);
            }
            into[i] = System.nanoTime() - t0;
            if (!(outcome instanceof PgOutcome.Approved approved)) {
                throw new IllegalStateException("Expected Approved, got " + outcome);
            }
            acc += approved.transactionKey().length();
        }
        sink += acc;
    }

    private static double min(double[] values) {
        double m = Double.MAX_VALUE;
        for (double v : values) {
            m = Math.min(m, v);
        }
        return m;
    }

    private static double max(double[] values) {
        double m = -Double.MAX_VALUE;
        for (double v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    /** The client with the network taken out: answers DONE at once, building the answer a real one would. */
    private static final class AnswersAtOnce extends TossPgClient {

        private final OffsetDateTime approvedAt = OffsetDateTime.now();

        AnswersAtOnce(PgClientProperties properties, ObjectMapper json) {
            super(properties, json);
        }

        @Override
        public ConfirmAnswer confirm(String paymentKey, String orderId, long amount, String idempotencyKey,
                                     Duration timeout) {
            return new ConfirmAnswer.Accepted(new PgPayment(paymentKey, orderId, "DONE", amount, approvedAt,
                    "tx-" + idempotencyKey));
        }
    }
}

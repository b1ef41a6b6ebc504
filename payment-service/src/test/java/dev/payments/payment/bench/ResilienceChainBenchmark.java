package dev.payments.payment.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.adapter.out.pg.PgAnswerLostException;
import dev.payments.payment.adapter.out.pg.PgClientProperties;
import dev.payments.payment.adapter.out.pg.ResilientPaymentGateway;
import dev.payments.payment.adapter.out.pg.TossPgClient;
import dev.payments.payment.application.PaymentGateway.Admitted;
import dev.payments.payment.application.PaymentGateway.Lane;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgState;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resilience chain's latency target: the resilience chain (bulkhead -> breaker -> retry -> timeouts, i.e.
 * {@code ResilientPaymentGateway.underAdmission(...)} around {@code approve(...)}) adds at most 1 ms p99 over a
 * direct {@code TossPgClient.confirm(...)}.
 *
 * <p>No Spring context: the client and the gateway are wired from payment-service's application.yml
 * ({@link ApplicationYmlChain}) against an in-process PG simulator with no latency and no faults. Every call confirms a
 * fresh order (the simulator approves an order once); its books are emptied between rounds, outside the timing. Two
 * ways to cancel the drift of this shared machine: whole rounds alternating direct-chain / chain-direct, and rounds in
 * which each caller alternates the two call by call. The added latency is the median over rounds of (chain - direct)
 * at p50 and p99, also shown for all rounds pooled.
 *
 * <p>Two scenarios: {@code network} (the real client over loopback HTTP: what a caller sees) and {@code in-memory}
 * (the same classes with a client that answers DONE at once: the chain's own cost, without the network noise that
 * dominates the first). Arguments ({@code key=value}): {@code callers=1,4} (threads calling at once),
 * {@code rounds=10}, {@code perRound=5000}, {@code warmupRounds=3}, {@code memoryPerRound=200000},
 * {@code timeoutMinutes=30}. Results and how to run it: docs/benchmarks/resilience.md.
 */
public final class ResilienceChainBenchmark {

    private static final long AMOUNT = 1_000;

    private final ApplicationYmlChain chain;
    private final TossPgClient client;
    private final ResilientPaymentGateway gateway;
    private final Duration directTimeout;
    private volatile long sink;
    private final AtomicLong directLost = new AtomicLong();

    private ResilienceChainBenchmark(ApplicationYmlChain chain, TossPgClient client) {
        this.chain = chain;
        this.client = client;
        this.gateway = chain.gateway(client);
        this.directTimeout = chain.pgClient.confirmReadTimeout();
    }

    public static void main(String[] args) throws Exception {
        BenchRun run = BenchRun.start("ResilienceChainBenchmark", args, Duration.ofMinutes(30));
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

    /**
     * Warm-up; then {@code rounds} pairs of whole rounds, direct-chain and chain-direct alternately; then {@code rounds}
     * interleaved rounds in which every caller alternates the two call by call, so both see the same moment of this
     * machine. Prints both comparisons.
     */
    private int compare(String scenario, int callers, int warmupRounds, int rounds, int perRound, PgSimulator simulator)
            throws Exception {
        for (int r = 0; r < warmupRounds; r++) {
            measure(Mode.DIRECT, callers, perRound, simulator);
            measure(Mode.CHAIN, callers, perRound, simulator);
            measure(Mode.INTERLEAVED, callers, perRound, simulator);
        }
        Comparison alternating = new Comparison();
        for (int r = 0; r < rounds; r++) {
            double pressure = BenchRun.cpuPressure();
            Round d;
            Round c;
            if (r % 2 == 0) {
                d = measure(Mode.DIRECT, callers, perRound, simulator);
                c = measure(Mode.CHAIN, callers, perRound, simulator);
            } else {
                c = measure(Mode.CHAIN, callers, perRound, simulator);
                d = measure(Mode.DIRECT, callers, perRound, simulator);
            }
            alternating.add(d.direct(), d.directLatencies(), c.chained(), c.chainedLatencies());
            System.out.printf(Locale.ROOT, "%s callers=%d alternating round %d (cpu pressure %.0f %%)%n  direct %s%n  chain  %s%n",
                    scenario, callers, r + 1, pressure, d.directLatencies().inMicros(), c.chainedLatencies().inMicros());
        }
        Comparison interleaved = new Comparison();
        for (int r = 0; r < rounds; r++) {
            double pressure = BenchRun.cpuPressure();
            Round both = measure(Mode.INTERLEAVED, callers, perRound, simulator);
            interleaved.add(both.direct(), both.directLatencies(), both.chained(), both.chainedLatencies());
            System.out.printf(Locale.ROOT, "%s callers=%d interleaved round %d (cpu pressure %.0f %%)%n  direct %s%n  chain  %s%n",
                    scenario, callers, r + 1, pressure, both.directLatencies().inMicros(),
                    both.chainedLatencies().inMicros());
        }
        System.out.printf(Locale.ROOT, "%n%s, callers=%d, median of rounds (us):%n", scenario, callers);
        double alternatingP99 = alternating.print("alternating rounds, " + rounds + " x " + perRound + " calls a side");
        double interleavedP99 = interleaved.print("interleaved call by call, " + rounds + " x " + perRound / 2
                + " calls a side");
        boolean healthy = chain.breaker.getState().name().equals("CLOSED")
                && chain.bulkhead.getMetrics().getAvailableConcurrentCalls()
                == chain.bulkhead.getBulkheadConfig().getMaxConcurrentCalls();
        System.out.printf(Locale.ROOT, "  direct calls lost to a pooled connection closed under them (JDK-8338569) so far: %d%s%n",
                directLost.get(), simulator == null ? "" : "; status queries the chain made to settle a lost answer so far: "
                        + simulator.stats().queries());
        System.out.printf(Locale.ROOT, "  every chained call approved (checked per call); breaker %s, failure rate %.1f %%, "
                        + "bulkhead slots free %d/%d%n",
                chain.breaker.getState(), chain.breaker.getMetrics().getFailureRate(),
                chain.bulkhead.getMetrics().getAvailableConcurrentCalls(),
                chain.bulkhead.getBulkheadConfig().getMaxConcurrentCalls());
        boolean met = alternatingP99 <= 1_000_000 && interleavedP99 <= 1_000_000;
        System.out.printf(Locale.ROOT, "  verdict: chain adds p99 %s us (alternating) / %s us (interleaved) <= 1000 us: %s%n%n",
                Latencies.micros(alternatingP99), Latencies.micros(interleavedP99), met ? "MET" : "MISSED");
        return healthy ? 0 : 1;
    }

    private enum Mode { DIRECT, CHAIN, INTERLEAVED }

    /** Rounds of both sides; the added latency is the median of per-round differences. */
    private static final class Comparison {
        final List<Latencies> direct = new ArrayList<>();
        final List<Latencies> chained = new ArrayList<>();
        final List<long[]> directSamples = new ArrayList<>();
        final List<long[]> chainedSamples = new ArrayList<>();

        void add(long[] directRaw, Latencies d, long[] chainedRaw, Latencies c) {
            directSamples.add(directRaw);
            direct.add(d);
            chainedSamples.add(chainedRaw);
            chained.add(c);
        }

        private static long[] pooled(List<long[]> rounds) {
            long[] all = rounds.stream().flatMapToLong(java.util.Arrays::stream).toArray();
            java.util.Arrays.sort(all);
            return all;
        }

        /** Prints both sides and their difference; returns the added p99 (median of per-round differences). */
        double print(String label) {
            double[] p50 = new double[direct.size()];
            double[] p99 = new double[direct.size()];
            for (int i = 0; i < direct.size(); i++) {
                p50[i] = chained.get(i).p50() - direct.get(i).p50();
                p99[i] = chained.get(i).p99() - direct.get(i).p99();
            }
            System.out.println("  " + label + ":");
            side("direct TossPgClient.confirm", direct);
            side("admission + approve", chained);
            double addedP99 = Latencies.median(p99);
            System.out.printf(Locale.ROOT, "    added by the chain: p50 %s (difference of medians %s), p99 %s "
                            + "(difference of medians %s; per-round range %s .. %s)%n",
                    Latencies.micros(Latencies.median(p50)),
                    Latencies.micros(Latencies.median(chained, Latencies::p50) - Latencies.median(direct, Latencies::p50)),
                    Latencies.micros(addedP99),
                    Latencies.micros(Latencies.median(chained, Latencies::p99) - Latencies.median(direct, Latencies::p99)),
                    Latencies.micros(min(p99)), Latencies.micros(max(p99)));
            long[] d = pooled(directSamples);
            long[] c = pooled(chainedSamples);
            System.out.printf(Locale.ROOT, "    all rounds pooled (%d calls a side): direct p50=%s p99=%s, chain p50=%s p99=%s, "
                            + "added p50 %s p99 %s%n", d.length,
                    Latencies.micros(Latencies.rank(d, 0.5)), Latencies.micros(Latencies.rank(d, 0.99)),
                    Latencies.micros(Latencies.rank(c, 0.5)), Latencies.micros(Latencies.rank(c, 0.99)),
                    Latencies.micros(Latencies.rank(c, 0.5) - Latencies.rank(d, 0.5)),
                    Latencies.micros(Latencies.rank(c, 0.99) - Latencies.rank(d, 0.99)));
            return addedP99;
        }

        private static void side(String label, List<Latencies> rounds) {
            System.out.printf(Locale.ROOT, "    %-28s p50=%s p90=%s p99=%s p99.9=%s  %.0f calls/s%n", label,
                    Latencies.micros(Latencies.median(rounds, Latencies::p50)),
                    Latencies.micros(Latencies.median(rounds, Latencies::p90)),
                    Latencies.micros(Latencies.median(rounds, Latencies::p99)),
                    Latencies.micros(Latencies.median(rounds, Latencies::p999)),
                    Latencies.median(rounds, Latencies::perSecond));
        }
    }

    /** One round of {@code mode}. */
    private Round measure(Mode mode, int callers, int total, PgSimulator simulator) throws Exception {
        if (simulator != null) {
            simulator.resetLedger();
        }
        System.gc(); // outside the timing: start every round from a similar heap
        int perCaller = total / callers;
        int directPerCaller = mode == Mode.DIRECT ? perCaller : mode == Mode.INTERLEAVED ? perCaller / 2 : 0;
        int chainPerCaller = mode == Mode.CHAIN ? perCaller : mode == Mode.INTERLEAVED ? perCaller / 2 : 0;
        long[][] direct = new long[callers][directPerCaller];
        long[][] chained = new long[callers][chainPerCaller];
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        long wall;
        try {
            List<Future<?>> work = new ArrayList<>();
            long started = System.nanoTime();
            for (int c = 0; c < callers; c++) {
                long[] d = direct[c];
                long[] ch = chained[c];
                work.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    int n = Math.max(d.length, ch.length);
                    for (int i = 0; i < n; i++) {
                        // Interleaved: alternate which goes first, so neither side always follows the other.
                        boolean directFirst = (i & 1) == 0;
                        if (directFirst && i < d.length) {
                            d[i] = directOnce(random);
                        }
                        if (i < ch.length) {
                            ch[i] = chainOnce(random);
                        }
                        if (!directFirst && i < d.length) {
                            d[i] = directOnce(random);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : work) {
                w.get();
            }
            wall = System.nanoTime() - started;
        } finally {
            pool.shutdownNow();
        }
        return new Round(merge(direct), merge(chained), wall);
    }

    /** One round's raw samples, in nanoseconds (empty for the side a mode does not run). */
    private record Round(long[] direct, long[] chained, long wallNanos) {

        Latencies directLatencies() {
            return Latencies.of(direct, direct.length, wallNanos);
        }

        Latencies chainedLatencies() {
            return Latencies.of(chained, chained.length, wallNanos);
        }
    }

    private static long[] merge(long[][] perCaller) {
        int each = perCaller[0].length;
        long[] all = new long[each * perCaller.length];
        for (int c = 0; c < perCaller.length; c++) {
            System.arraycopy(perCaller[c], 0, all, c * each, each);
        }
        return all;
    }

    private long directOnce(ThreadLocalRandom random) {
        String orderId = new UUID(random.nextLong(), random.nextLong()).toString();
        String paymentKey = "pk-" + orderId;
        String idempotencyKey = UUID.randomUUID().toString();
        long t0 = System.nanoTime();
        TossPgClient.PgAnswer answer;
        try {
            answer = client.confirm(paymentKey, orderId, AMOUNT, idempotencyKey, directTimeout);
        } catch (PgAnswerLostException e) {
            // JDK 17's HttpClient can close a pooled keep-alive connection under a request that just reused it
            // (JDK-8338569). The chain settles such a call with a status query; a bare call can only fail. Counted,
            // and its time kept: a caller waited that long.
            long took = System.nanoTime() - t0;
            directLost.incrementAndGet();
            return took;
        }
        long took = System.nanoTime() - t0;
        if (!(answer instanceof TossPgClient.PgAnswer.Accepted accepted)
                || !"DONE".equals(accepted.payment().status())) {
            throw new IllegalStateException("Expected DONE, got " + answer);
        }
        sink += accepted.payment().lastTransactionKey().length();
        return took;
    }

    private long chainOnce(ThreadLocalRandom random) {
        OrderId orderId = new OrderId(new UUID(random.nextLong(), random.nextLong()));
        ApprovalRequest request = new ApprovalRequest("pk-" + orderId, orderId, AMOUNT, UUID.randomUUID().toString(),
                null);
        Instant deadline = Instant.now().plus(chain.approvalDeadline); // ConfirmPayment sets it at request start
        long t0 = System.nanoTime();
        Admitted<PgOutcome> admitted = gateway.underAdmission(Lane.APPROVAL,
                approver -> approver.approve(request, deadline));
        if (!(admitted instanceof Admitted.Ran<PgOutcome> ran)) {
            throw new IllegalStateException("Admission refused: " + admitted);
        }
        PgOutcome outcome = ran.value();
        long took = System.nanoTime() - t0;
        if (!(outcome instanceof PgOutcome.Answered answered) || answered.status().state() != PgState.DONE) {
            throw new IllegalStateException("Expected DONE, got " + outcome);
        }
        sink += answered.status().transactionKey().length();
        return took;
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
        public PgAnswer confirm(String paymentKey, String orderId, long amount, String idempotencyKey,
                                     Duration timeout) {
            return new PgAnswer.Accepted(new PgPayment(paymentKey, orderId, "DONE", amount, approvedAt,
                    "tx-" + idempotencyKey, null));
        }
    }
}

package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.drills.load.Attempt;
import dev.payments.localstack.http.Http;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * 000 / 002: the PG accepts connections and never answers (approvals and status queries). {@code concurrent}
 * approvals at once, and beside them an arrival-rate load; once the breaker is open, a measured window of arrivals;
 * then the PG recovers and a trickle lets the half-open trials close the breaker. Until the breaker opens, every
 * approval slot is held by a confirm the PG never answers, and a member reads a paid payment every 50 ms: the rest of
 * the API must keep answering (000: a silent PG froze all 200 threads).
 */
@Command(name = "pg-silent", description = "000/002: PG accepts and never answers; breaker; recovery.")
class PgSilent extends BaseScenario {

    @Option(names = "--concurrent", description = "Approvals released at once when the PG falls silent.")
    int concurrent = 50;
    @Option(names = "--rate", description = "Arrivals per second beside the burst.")
    double rate = 100;
    @Option(names = "--open-window", description = "Seconds of arrivals with the breaker open.")
    int openWindowSeconds = 10;
    @Option(names = "--max-wait-open", description = "Seconds of arrivals at most until the breaker opens.")
    int maxWaitForOpenSeconds = 30;
    @Option(names = "--trickle", description = "Seconds of 1/s after the PG recovers.")
    int trickleSeconds = 40;
    @Mixin
    WarmUp warmUp = new WarmUp();

    private static final Duration READ_EVERY = Duration.ofMillis(50);
    private static final double ALL = Double.MAX_VALUE;
    /** Each read's drill second when it ended and its milliseconds, so a report says when the slow ones came. */
    private final List<double[]> readTimes = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger readsFailed = new AtomicInteger();
    private final List<String> readFailures = Collections.synchronizedList(new ArrayList<>());

    @Override
    public int warmupApprovals() {
        return warmUp.approvals;
    }

    @Override
    public String description() {
        return "PG silent (accepts, never answers; queries too). " + concurrent + " concurrent approvals plus "
                + rate + " arrivals/s until the breaker opens, " + openWindowSeconds + " s of arrivals with it open, then"
                + " the PG recovers and 1 arrival/s for " + trickleSeconds + " s (000: 50 concurrent, 30 s per request"
                + " before the breaker; then 0.5 s 503s)";
    }

    @Override
    public int ordersNeeded() {
        return concurrent + (int) Math.ceil(rate * (maxWaitForOpenSeconds + openWindowSeconds))
                + trickleSeconds + 5;
    }

    /** The simulator's fault (admin JSON) that starts the outage; {@link PgDown} puts another one in its place. */
    protected String fault() {
        return "{\"operation\":\"all\",\"hang\":true}";
    }

    @Override
    public void run(Drill drill) {
        Attempt paid = drill.recorder().attempts().stream()
                .filter(a -> "approved".equals(a.outcome()) && a.paymentId() != null).findFirst().orElse(null);
        AtomicBoolean reading = new AtomicBoolean(paid != null);
        if (paid == null) {
            drill.note("no approved warm-up payment to read (--warmup 0): the rest of the API was not probed");
        }
        drill.fault(fault());
        double faultAt = drill.clock().seconds();
        Thread reader = paid == null ? null : drill.background("reads", () -> read(drill, paid, reading));
        Thread burst = drill.background("burst", () -> drill.load().burst(drill.orders().take(concurrent),
                "burst-" + concurrent));
        drill.phase("arrivals, breaker closed");
        Thread arrivals = drill.background("arrivals", () -> drill.load().openLoop(drill.orders()::next, rate,
                Duration.ofSeconds(maxWaitForOpenSeconds), 400, "arrivals-before-open"));
        boolean opened = drill.awaitBreaker("OPEN", Duration.ofSeconds(maxWaitForOpenSeconds));
        double openedAt = drill.clock().seconds();
        reading.set(false);
        Drill.join(arrivals);
        if (reader != null) {
            Drill.join(reader);
            drill.extra("reads of a paid payment while the confirms hung (p50 / p99 / max ms, failed)",
                    Stats.ms(readPercentile(50, 0, ALL)) + " / " + Stats.ms(readPercentile(99, 0, ALL))
                            + " / " + Stats.ms(readPercentile(100, 0, ALL)) + ", " + readsFailed.get() + " of "
                            + readTimes.size());
            // The admission burst (the slots filled in ~1 s, two cores busy) and the deadline (every hung confirm
            // written UNKNOWN in one second) apart from the hang itself, which is what 000's frozen threads were.
            drill.extra("reads from 2 s after the fault to 1 s before the breaker opened (p50 / p99 ms)",
                    Stats.ms(readPercentile(50, faultAt + 2, openedAt - 1)) + " / "
                            + Stats.ms(readPercentile(99, faultAt + 2, openedAt - 1)));
            drill.extra("the five slowest reads (drill s when it ended: ms)", slowestReads(5));
            drill.check("every read answered while the confirms hung", readsFailed.get() == 0,
                    readsFailed.get() + " of " + readTimes.size() + " reads got no 200 within 2 s " + readFailures);
        }
        if (!opened) {
            drill.note("the breaker did not open within " + maxWaitForOpenSeconds + " s of the fault");
        }
        drill.phase("arrivals, breaker open");
        drill.load().openLoop(drill.orders()::next, rate, Duration.ofSeconds(openWindowSeconds), 400,
                "arrivals-breaker-open");
        Drill.join(burst);
        drill.clearFaults();
        drill.phase("recovery trickle");
        drill.load().openLoop(drill.orders()::next, 1, Duration.ofSeconds(trickleSeconds), 50, "recovery-trickle");
    }

    /**
     * GET of the member's own paid payment every 50 ms, each given 2 s: a read the web threads must still serve. From
     * a client of its own, as a member's app is: the load's client holds the hung confirms and the refusals, and a
     * read queued behind them in the drill would be timed as the service's.
     */
    private void read(Drill drill, Attempt paid, AtomicBoolean reading) {
        String url = drill.target().endpoints().payment() + "/api/payments/" + paid.paymentId();
        Http member = new Http();
        while (reading.get()) {
            Map<String, String> headers = Http.bearer(drill.target().tokens().member(paid.order().memberId()));
            long started = System.nanoTime();
            Http.Response response = member.get(url, headers, Duration.ofSeconds(2));
            double ms = (System.nanoTime() - started) / 1e6;
            readTimes.add(new double[] {drill.clock().seconds(), ms});
            if (response.status() != 200) {
                readsFailed.incrementAndGet();
                readFailures.add(String.format(java.util.Locale.ROOT, "%.1f s: %s after %.0f ms", drill.clock().seconds(),
                        response.status() == 0 ? response.error() : "HTTP " + response.status(),
                        (System.nanoTime() - started) / 1e6));
            }
            drill.sleep(READ_EVERY);
        }
    }

    private String slowestReads(int n) {
        synchronized (readTimes) {
            return readTimes.stream().sorted((a, b) -> Double.compare(b[1], a[1])).limit(n)
                    .map(r -> String.format(java.util.Locale.ROOT, "%.1f: %.0f", r[0], r[1]))
                    .collect(java.util.stream.Collectors.joining(", "));
        }
    }

    /** Over the reads that ended between two drill seconds. */
    private Double readPercentile(double p, double from, double to) {
        double[] sorted;
        synchronized (readTimes) {
            sorted = readTimes.stream().filter(r -> r[0] >= from && r[0] <= to).mapToDouble(r -> r[1]).sorted()
                    .toArray();
        }
        return sorted.length == 0 ? null : Stats.round(Stats.percentile(sorted, p));
    }

    @Override
    public List<Target> targets(Measurements r) {
        Double p99 = r.phases().stream().filter(p -> p.name().equals("arrivals-breaker-open")).findFirst()
                .map(p -> p.latency().p99()).orElse(null);
        Double open = r.detect().breakerOpenAfter();
        Double alert = r.detect().alertPendingAfter();
        Double readP99 = readPercentile(99, 0, ALL);
        return List.of(
                new Target("a read's p99 while the confirms hang", "<= 50 ms", Stats.ms(readP99),
                        atMost(readP99, 50)),
                new Target("p99 while open", "<= 10 ms (000: 0.5 s)", Stats.ms(p99), atMost(p99, 10)),
                // A hung call is judged only when it ends: 002 counts "final timeout after the status query also
                // failed", i.e. the 15 s read timeout plus the 5 s query (payment-service's 20 s approval deadline).
                // 002's 169 ms was for 70 % errors, which pg-down drives.
                new Target("breaker open after the fault", "<= 21 s (002: a hang fails at read timeout + query)",
                        Stats.s(open), atMost(open, 21)),
                new Target("alert condition true after the fault", "<= 75 s (000: 2 min 3 s)", Stats.s(alert),
                        atMost(alert, 75)),
                new Target("every UNKNOWN settled after the PG recovers", "<= 30 s", settledText(r),
                        settledWithin(r, 30)));
    }
}

package dev.payments.payment.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.payment.adapter.out.ratelimit.PostgresMemberRateLimit;
import dev.payments.payment.domain.MemberId;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import org.flywaydb.core.Flyway;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * What the cluster-wide per-member limit costs per request. Each check of {@link PostgresMemberRateLimit} is
 * one transaction against the service's database (insert-if-new, {@code SELECT ... FOR UPDATE}, update, commit); the
 * floor beside it is the per-replica in-memory Bucket4j bucket it replaced. Closed-loop threads call the limit
 * directly (no HTTP), against the shared embedded PostgreSQL 17 through a Hikari pool like the service's, with members
 * drawn at random so most checks find their bucket (as a member's requests do) and none is refused. It also counts the
 * table's rows after the cleanup, to show the storage stays bounded. Results: docs/benchmarks/rate-limit.md.
 *
 * <p>Arguments ({@code key=value}): {@code threads=1,4}, {@code rounds=5}, {@code perRound=2000}, {@code warmup=3000},
 * {@code members=500}, {@code pool=10}, {@code timeoutMinutes=15}.
 * <pre>./mvnw -q -pl payment-service -am -Pbench -Dbench=RateLimitBenchmark process-test-classes</pre>
 */
public final class RateLimitBenchmark {

    private static final String DATABASE = "payments_rate_bench";

    public static void main(String[] args) throws Exception {
        BenchRun run = BenchRun.start("RateLimitBenchmark", args, Duration.ofMinutes(15));
        int rounds = run.integer("rounds", 5);
        int perRound = run.integer("perRound", 2000);
        int warmup = run.integer("warmup", 3000);
        int members = run.integer("members", 500);
        List<Integer> threadCounts = run.integers("threads", "1,4");

        Map<String, String> spring = SharedTestInfrastructure.springProperties(DATABASE);
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(spring.get("spring.datasource.url"));
        pool.setUsername(spring.get("spring.datasource.username"));
        pool.setPassword(spring.get("spring.datasource.password"));
        pool.setMaximumPoolSize(run.integer("pool", 10));
        try (HikariDataSource dataSource = new HikariDataSource(pool)) {
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").cleanDisabled(false).load().migrate();
            // Far above what the load asks, so every check is allowed: the cost measured is the check, not a refusal.
            PostgresMemberRateLimit shared = new PostgresMemberRateLimit(dataSource, 1_000_000);
            Map<String, Bucket> local = new ConcurrentHashMap<>();
            Predicate<MemberId> inMemory = member -> local.computeIfAbsent(member.value(), key -> Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity(1_000_000).refillIntervally(1_000_000, Duration.ofMinutes(1)).build())
                    .build()).tryConsume(1);
            // The check runs in the caller's transaction (TX-1 in the service); here each gets one of its own, so
            // what is measured is the check plus a commit, as it cost before it moved into TX-1.
            TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
            Predicate<MemberId> postgres = member -> transaction.execute(status -> shared.tryAcquire(member)).isEmpty();

            System.out.printf(Locale.ROOT, "members %d, pool %d, %d rounds of %d checks per thread count (after %d warm-up)%n",
                    members, pool.getMaximumPoolSize(), rounds, perRound, warmup);
            System.out.printf(Locale.ROOT, "%-10s %-8s %9s %9s %9s %9s %11s %9s%n", "limit", "threads", "p50 us",
                    "p90 us", "p99 us", "max us", "checks/s", "pressure");
            for (int threads : threadCounts) {
                for (Map.Entry<String, Predicate<MemberId>> limit : List.of(Map.entry("in-memory", inMemory),
                        Map.entry("postgres", postgres))) {
                    measure(limit.getValue(), threads, members, warmup);
                    List<Latencies> results = new ArrayList<>();
                    List<Double> pressure = new ArrayList<>();
                    for (int round = 0; round < rounds; round++) {
                        results.add(measure(limit.getValue(), threads, members, perRound));
                        pressure.add(BenchRun.cpuPressure());
                    }
                    System.out.printf(Locale.ROOT, "%-10s %-8d %9.1f %9.1f %9.1f %9.1f %11.0f %8.0f%%%n", limit.getKey(),
                            threads, Latencies.median(results, Latencies::p50) / 1e3,
                            Latencies.median(results, Latencies::p90) / 1e3, Latencies.median(results, Latencies::p99) / 1e3,
                            Latencies.median(results, Latencies::max) / 1e3, Latencies.median(results, Latencies::perSecond),
                            Latencies.median(pressure.stream().mapToDouble(Double::doubleValue).toArray()));
                }
            }
            System.out.println("(median over rounds of each round's percentile; pressure = Linux CPU pressure, the share of"
                    + " the last 10 s in which a runnable task waited for a CPU)");

            try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
                var rows = statement.executeQuery("SELECT count(*) FROM member_rate_buckets");
                rows.next();
                System.out.printf(Locale.ROOT, "buckets stored after the load: %d (one per member seen)%n", rows.getLong(1));
                // As if every bucket were full again: the cleanup's query deletes every row whose time is up.
                statement.executeUpdate("UPDATE member_rate_buckets SET expires_at = 0");
                int removed = 0;
                int last;
                do {
                    last = shared.forgetRested(1000);
                    removed += last;
                } while (last == 1000);
                rows = statement.executeQuery("SELECT count(*) FROM member_rate_buckets");
                rows.next();
                System.out.printf(Locale.ROOT, "cleanup removed %d rested buckets, %d left%n", removed, rows.getLong(1));
            }
        }
        System.exit(0);
    }

    /** {@code perThread} checks on each of {@code threads} closed-loop threads; latencies of all of them. */
    private static Latencies measure(Predicate<MemberId> limit, int threads, int members, int perThread) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long began = System.nanoTime();
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    long[] nanos = new long[perThread];
                    for (int i = 0; i < perThread; i++) {
                        MemberId member = new MemberId("bench-member-" + ThreadLocalRandom.current().nextInt(members));
                        long t0 = System.nanoTime();
                        if (!limit.test(member)) {
                            throw new IllegalStateException("a check was refused; the benchmark measures allowed checks");
                        }
                        nanos[i] = System.nanoTime() - t0;
                    }
                    return nanos;
                }));
            }
            long[] all = new long[threads * perThread];
            int n = 0;
            for (Future<long[]> future : futures) {
                long[] nanos = future.get();
                System.arraycopy(nanos, 0, all, n, nanos.length);
                n += nanos.length;
            }
            return Latencies.of(all, n, System.nanoTime() - began);
        } finally {
            pool.shutdownNow();
        }
    }
}

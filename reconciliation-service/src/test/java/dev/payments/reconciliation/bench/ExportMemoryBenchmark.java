package dev.payments.reconciliation.bench;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.adapter.in.web.ExportWriters;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.domain.ledger.LedgerAudit;
import dev.payments.reconciliation.domain.ledger.LedgerBooks;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import dev.payments.reconciliation.domain.projection.Bookkeeping;
import dev.payments.reconciliation.domain.projection.MemberId;
import dev.payments.reconciliation.domain.projection.OrderDetails;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentPurpose;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What the finance export holds in memory. For a window of N synthetic PG transactions (approvals of PAID
 * orders, every {@code cancelEvery}-th one cancelled at the PG and in our books, with its CANCEL) it runs the real
 * matching ({@link LedgerAudit#audit} with the per-line consumer, as {@link AuditLedger#export} does) into the real CSV
 * writer, onto a stream that counts the bytes and drops them; then the same onto a {@link ByteArrayOutputStream}, which
 * is what a writer that gathered its document would hold; and the matching alone, its lines dropped: what the export
 * holds whatever it writes.
 *
 * <p>Memory is the live heap: heap used right after {@code System.gc()} (a full, compacting collection with G1 and
 * Serial), above a baseline taken the same way before the window is built. That is what is held, independent of heap
 * size and of when the collector happens to run; a pool's peak usage would mostly count garbage waiting in the young
 * generation. "held input" is the listing and our books alone, as the PG client and the projection reader hand them;
 * "live peak" is the largest of the samples taken every 1/{@value #SAMPLES} of the lines and just before the last one,
 * so it includes the matching's index and the writer. Bytes allocated by the writing thread are the churn
 * (garbage), shown apart; time is from a run without the samples. Results: docs/benchmarks/export.md.
 *
 * <p>Arguments ({@code key=value}): {@code sizes=10000,100000,300000}, {@code cancelEvery=10}.
 * <pre>./mvnw -q -pl reconciliation-service -am -Pbench -Dbench=ExportMemoryBenchmark process-test-classes</pre>
 */
public final class ExportMemoryBenchmark {

    private static final Instant FROM = Instant.parse("2026-11-01T00:00:00Z");
    private static final Duration IN_FLIGHT = Duration.ofSeconds(30);
    private static final int SAMPLES = 8;
    private static final double MIB = 1024 * 1024;

    public static void main(String[] args) throws IOException {
        Map<String, String> arguments = Arrays.stream(args).filter(a -> a.contains("="))
                .collect(Collectors.toMap(a -> a.substring(0, a.indexOf('=')), a -> a.substring(a.indexOf('=') + 1)));
        List<Integer> sizes = Arrays.stream(arguments.getOrDefault("sizes", "10000,100000,300000").split(","))
                .map(String::trim).map(Integer::parseInt).toList();
        int cancelEvery = Integer.parseInt(arguments.getOrDefault("cancelEvery", "10"));
        System.out.printf(Locale.ROOT, "== ExportMemoryBenchmark ==%nnproc=%d, java %s, max heap %d MiB, gc %s, "
                        + "load average %.2f%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.version"), Runtime.getRuntime().maxMemory() / (1024 * 1024),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.printf(Locale.ROOT, "%8s %8s %9s %9s %7s %9s %9s %9s %7s %9s %10s %7s%n", "N", "cancels",
                "csv MiB", "held MiB", "B/tx", "matching", "live MiB", "B/tx", "output", "gathered", "alloc MiB", "ms");
        // A first, unreported round warms the code up, so the first size is not measured with the interpreter.
        measure(Math.min(sizes.get(0), 10_000), cancelEvery);
        for (int n : sizes) {
            Result r = measure(n, cancelEvery);
            System.out.printf(Locale.ROOT, "%8d %8d %9.1f %9.1f %7.0f %9.1f %9.1f %7.0f %7.1f %9.1f %10.1f %7d%n", n,
                    r.cancels, r.bytes / MIB, r.held / MIB, (double) r.held / n, r.matchingPeak / MIB,
                    r.livePeak / MIB, (double) r.livePeak / n, (r.livePeak - r.matchingPeak) / MIB,
                    r.gatheredPeak / MIB, r.allocated / MIB, r.millis);
        }
        System.out.println("all above the baseline, after a full GC: held = listing + books; matching = peak of the "
                + "audit alone, lines dropped; live = peak of the streamed CSV export; output = live - matching; "
                + "gathered = peak when the document is kept in memory instead; alloc = churn of the timed export");
    }

    private record Result(long cancels, long bytes, long held, long matchingPeak, long livePeak, long gatheredPeak,
                          long allocated, long millis) {
    }

    private static Result measure(int n, int cancelEvery) throws IOException {
        long baseline = liveHeap();
        Window window = Window.of(n, cancelEvery);
        long held = liveHeap() - baseline;
        // Every approval PAID or a cancellation: a mismatch would add state the export does not usually hold.
        LedgerReport report = window.export().write(line -> {
        });
        if (!report.holds() || report.paidOrders() + report.cancellations() != report.pgApprovals()) {
            throw new IllegalStateException("The synthetic window does not match cleanly: " + report);
        }

        Discard timed = new Discard();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        long started = System.nanoTime();
        ExportWriters.csv(window.export(), timed);
        long millis = (System.nanoTime() - started) / 1_000_000;
        long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;

        long matchingPeak = window.sampledPeak(null) - baseline;
        Discard discard = new Discard();
        long livePeak = window.sampledPeak(discard) - baseline;
        ByteArrayOutputStream gathered = new ByteArrayOutputStream();
        long gatheredPeak = window.sampledPeak(gathered) - baseline;
        if (discard.bytes != timed.bytes || gathered.size() != timed.bytes) {
            throw new IllegalStateException("The runs wrote different documents: " + timed.bytes + ", " + discard.bytes
                    + ", " + gathered.size() + " bytes");
        }
        return new Result(window.cancels, timed.bytes, held, matchingPeak, livePeak, gatheredPeak, allocated, millis);
    }

    /** Heap in use right after a full collection: what is reachable. */
    private static long liveHeap() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** One window's PG listing and our books, as the PG client and the projection reader would hand them. */
    private record Window(List<PgTransaction> transactions, LedgerBooks books, Instant to, long cancels) {

        static Window of(int n, int cancelEvery) {
            List<PgTransaction> transactions = new ArrayList<>(n);
            List<PaymentView> payments = new ArrayList<>();
            List<OrderView> orders = new ArrayList<>();
            long cancels = 0;
            for (int i = 0; transactions.size() < n; i++) {
                Instant at = FROM.plusSeconds(i);
                boolean cancelled = i % cancelEvery == cancelEvery - 1 && transactions.size() < n - 1;
                OrderId order = new OrderId(UUID.randomUUID());
                PaymentId payment = new PaymentId(UUID.randomUUID());
                String key = "tx_" + UUID.randomUUID().toString().substring(0, 8) + "_" + i;
                String paymentKey = "pk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
                transactions.add(new PgTransaction(key, paymentKey, order.value().toString(),
                        PgTransaction.Type.APPROVE, 15_000, copy("KRW"), at));
                MemberId member = new MemberId(copy("member-" + i % 1000));
                payments.add(new PaymentView(payment, order, member, new Money(15_000, copy("KRW")),
                        PaymentPurpose.ORDER, cancelled ? PaymentStatus.CANCELED : PaymentStatus.APPROVED, null,
                        copy(paymentKey), copy(key), copy(at), cancelled ? at.plusSeconds(5) : null,
                        bookkeeping(cancelled ? "PaymentCanceled" : "PaymentApproved", at)));
                orders.add(new OrderView(order, new OrderDetails(new MemberId(copy(member.value())),
                        new Money(15_000, copy("KRW")), copy("plan")),
                        cancelled ? OrderStatus.CANCELED : OrderStatus.PAID, null, payment, null,
                        bookkeeping(cancelled ? "OrderCanceled" : "OrderPaid", at)));
                if (cancelled) {
                    transactions.add(new PgTransaction(key + "_c", copy(paymentKey), order.value().toString(),
                            PgTransaction.Type.CANCEL, 15_000, copy("KRW"), at.plusSeconds(5)));
                    cancels++;
                }
            }
            Instant to = FROM.plusSeconds(n + 10L);
            return new Window(transactions, new LedgerBooks(payments, orders, List.of()), to, cancels);
        }

        AuditLedger.Export export() {
            Instant now = to.plus(Duration.ofHours(1));
            return each -> LedgerAudit.audit(transactions, books, FROM, to, now, IN_FLIGHT, each);
        }

        /**
         * Writes the CSV to {@code out} (or, if null, only matches, dropping the lines), sampling the live heap while
         * it does; the largest sample.
         */
        long sampledPeak(OutputStream out) throws IOException {
            long every = Math.max(1, transactions.size() / SAMPLES);
            long[] seen = {0, 0};
            AuditLedger.Export export = export();
            AuditLedger.Export sampled = each -> export.write(line -> {
                seen[0]++;
                if (seen[0] % every == 0 || seen[0] == transactions.size()) {
                    seen[1] = Math.max(seen[1], liveHeap());
                }
                each.accept(line);
            });
            if (out == null) {
                sampled.write(line -> {
                });
            } else {
                ExportWriters.csv(sampled, out);
            }
            return seen[1];
        }

        private static Bookkeeping bookkeeping(String lastEventType, Instant at) {
            return new Bookkeeping(UUID.randomUUID(), copy(lastEventType), copy(at), copy(at), copy(at), 2, 0);
        }

        /** Each row's own copy, as a JSON parser or a JDBC driver hands it: nothing is shared between rows. */
        private static String copy(String value) {
            return new String(value);
        }

        private static Instant copy(Instant value) {
            return Instant.ofEpochSecond(value.getEpochSecond(), value.getNano());
        }
    }

    /** Counts what is written and drops it, as a socket would take it away. */
    private static final class Discard extends OutputStream {

        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}

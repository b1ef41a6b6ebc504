package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillAnalysis;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.analysis.LedgerAudit;
import dev.payments.drills.analysis.Observations;
import dev.payments.drills.load.ApprovalClient;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.OrderBook;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ConsumerLag;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.PostgresCounters;
import dev.payments.drills.observe.ResourceSampler;
import dev.payments.drills.stack.Target;
import dev.payments.localstack.http.Http;
import dev.payments.localstack.infra.EmbeddedPostgresServer;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToIntFunction;

/**
 * One run of a scenario on a running target: orders placed, the load, the observation while it runs and while the
 * payments settle, then the audit of the books; {@link DrillRunner} decides which targets and how many runs.
 */
final class ScenarioRun {

    private ScenarioRun() {
    }

    /** @param progress where the progress bar goes, or null */
    static DrillResult on(Scenario scenario, Target target, PrintStream progress, String command,
                          Duration settleDeadline) throws Exception {
        String startedAt = Instant.now().toString();
        String loadBefore = DrillResult.Machine.loadAverage();
        Drill drill = new Drill(target, new Http(), new Clock(), new Recorder(),
                new OrderBook("drill-" + Long.toString(System.currentTimeMillis(), 36)));
        drill.note("machine load average (1/5/15 min) when the drill started: " + loadBefore);
        Observations observed = observe(scenario, drill, progress, settleDeadline);
        DrillResult.Measurements measured = DrillAnalysis.measure(observed);
        List<String> notes = new ArrayList<>(drill.notes());
        notes.add("machine load average (1/5/15 min) when the audit ran: " + DrillResult.Machine.loadAverage()
                + " — other work on this machine competes with the stack and the load generator");
        notes.add(observed.audit().reconciliationNote());
        DrillResult.Run run = new DrillResult.Run(scenario.name(), scenario.fieldReport(), scenario.description(),
                command, startedAt, DrillResult.Machine.current(), target.describe(),
                scenario.parameters(), settings(scenario));
        List<DrillResult.Check> checks = new ArrayList<>(DrillAnalysis.checks(observed.audit(), observed.deadLetters()));
        checks.addAll(drill.checks());
        return new DrillResult(run, measured, checks, scenario.targets(measured), drill.extras(), notes);
    }

    private static Observations observe(Scenario scenario, Drill drill, PrintStream progressTo,
                                        Duration deadline) throws Exception {
        Target target = drill.target();
        Clock clock = drill.clock();
        Recorder recorder = drill.recorder();
        OrderBook orders = drill.orders();
        Books books = new Books(drill.http(), target);
        Progress progress = null;
        try (ConsumerLag lag = new ConsumerLag(target.kafkaClient());
             // Its own client, so the 50 ms breaker poll never queues behind the approvals. The poll still reads an
             // opening after the service's log has it: 0.3-1.4 s on the shared client, 0.41 s in the run after.
             MetricsSampler sampler = new MetricsSampler(new Http(), target.endpoints().paymentManagement(), clock, lag);
             ResourceSampler resources = new ResourceSampler(target::processes, target.launcherProcess(),
                     new PostgresCounters(target.endpoints().postgresJdbcUrl(), EmbeddedPostgresServer.USERNAME,
                             EmbeddedPostgresServer.PASSWORD), clock)) {
            if (progressTo != null) {
                progress = new Progress(progressTo, scenario.name(), drill, recorder, clock, sampler);
                progress.start();
            }
            drill.resetFaults();
            sampler.start();
            resources.start();
            Map<String, Long> deadLettersBefore = lag.deadLetters();

            drill.phase("placing orders");
            int warmup = scenario.warmupApprovals();
            int wanted = warmup + scenario.ordersNeeded();
            // The warm-up's orders first in the book, so the warm-up takes them before the scenario takes any.
            int refused = placeOrders(drill, wanted, client -> orders.placeOnePerMember(client, warmup, "warmup", 15_000,
                    8, n -> drill.detail(n + "/" + wanted + " orders placed"))
                    + orders.place(client, scenario.ordersNeeded(), scenario.members(), 15_000, 8,
                    n -> drill.detail((warmup + n) + "/" + wanted + " orders placed")), Duration.ofSeconds(90));
            if (refused > 0) {
                drill.note(refused + " of " + wanted + " orders were refused by order-service while placing them");
            }

            RecoveryWatch watch = new RecoveryWatch(books, recorder, lag, clock);
            Thread[] watcher = new Thread[1];
            drill.onRecovered(() -> {
                List<PreparedOrder> sent = orders.used();
                watcher[0] = new Thread(() -> watch.watch(sent, deadline), "drill-recovery");
                watcher[0].setDaemon(true);
                watcher[0].start();
            });
            if (warmup > 0) {
                drill.warmUp(warmup);
            }
            drill.mark("load start");
            scenario.run(drill);
            drill.mark("load end");
            drill.resetFaults();
            if (!drill.recoveryStarted()) {
                drill.recovered();
            }
            drill.phase("settling");
            if (watcher[0] != null) {
                watcher[0].join(deadline.toMillis() + 30_000);
            }
            LockSupport.parkNanos(Duration.ofSeconds(2).toNanos());   // one more scrape after the last answer
            scenario.afterSettling(drill);

            drill.phase("audit");
            List<Attempt> attempts = recorder.attempts();
            LedgerAudit audit = books.audit(books.states(orders.used(), RecoveryWatch.paymentIds(attempts)));
            Map<String, Long> deadLetters = ConsumerLag.since(deadLettersBefore, lag.deadLetters());
            drill.phase("done");
            return new Observations(clock, clock.seconds(), attempts, recorder.notSentCount(), sampler.samples(),
                    sampler.transitions(), drill.timeline().marks(), audit, watch.result(), deadline, deadLetters,
                    resources.samples());
        } finally {
            if (progress != null) {
                progress.stop();
            }
        }
    }

    /**
     * Places orders ({@code place} places them with the drill's client and returns how many order-service refused)
     * and, when the target learns orders from Kafka, waits until payment-service has consumed the others: a confirm
     * for an order it has not seen is a 404 that the client retries, and every retry spends the member's rate-limit
     * allowance. Returns the refused count.
     */
    static int placeOrders(Drill drill, int wanted, ToIntFunction<ApprovalClient> place, Duration patience) {
        try (ConsumerLag lag = new ConsumerLag(drill.target().kafkaClient())) {
            Long before = lag.committed("payment-service", "order.events");
            int refused = place.applyAsInt(drill.load().client());
            if (!drill.target().learnsOrdersFromKafka()) {
                return refused;
            }
            long until = System.nanoTime() + patience.toNanos();
            while (System.nanoTime() < until) {
                Long committed = lag.committed("payment-service", "order.events");
                long seen = committed == null ? 0 : committed - (before == null ? 0 : before);
                drill.detail("payment-service has seen " + seen + "/" + (wanted - refused) + " orders");
                if (seen >= wanted - refused) {
                    return refused;
                }
                drill.sleep(Duration.ofMillis(300));
            }
            drill.note("payment-service had not consumed every order event " + patience.toSeconds()
                    + " s after the orders were placed; the first confirms may see 404s (retried)");
            return refused;
        }
    }

    private static Map<String, List<String>> settings(Scenario scenario) {
        Map<String, List<String>> s = new TreeMap<>();
        scenario.settings().forEach((c, args) -> s.put(c.id(), args));
        return s;
    }
}

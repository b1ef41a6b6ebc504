package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillAnalysis;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.analysis.LedgerAudit;
import dev.payments.drills.analysis.Observations;
import dev.payments.drills.load.ApprovalClient;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.Http;
import dev.payments.drills.load.OrderBook;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ConsumerLag;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.stack.OwnStack;
import dev.payments.drills.stack.Target;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one scenario: stack, orders, load, observation, settling, audit. What it saw goes to {@link DrillAnalysis};
 * the result is the analysis with the scenario's goals measured against it.
 */
public final class DrillRunner {

    /**
     * @param external       a running stack to use, or null to start one with the scenario's settings
     * @param settleDeadline how long after the recovery (or the end of the load) payments may take to settle
     * @param progress       where the progress bar goes, or null
     */
    public record Options(Target external, Duration settleDeadline, PrintStream progress, String command,
                          Path dataDir) {
    }

    private DrillRunner() {
    }

    public static DrillResult run(Scenario scenario, Options options) throws Exception {
        String startedAt = Instant.now().toString();
        String loadBefore = DrillResult.Machine.loadAverage();
        Target target = options.external() != null ? options.external() : startStack(scenario, options);
        try {
            Drill drill = new Drill(target, new Http(), new Clock(), new Recorder(),
                    new OrderBook("drill-" + Long.toString(System.currentTimeMillis(), 36)));
            drill.note("machine load average (1/5/15 min) when the drill started: " + loadBefore);
            Observations observed = observe(scenario, drill, options);
            DrillResult.Measurements measured = DrillAnalysis.measure(observed);
            List<String> notes = new ArrayList<>(drill.notes());
            notes.add("machine load average (1/5/15 min) when the audit ran: " + DrillResult.Machine.loadAverage()
                    + " — other work on this machine competes with the stack and the load generator");
            notes.add(observed.audit().reconciliationNote());
            DrillResult.Run run = new DrillResult.Run(scenario.name(), scenario.fieldReport(), scenario.description(),
                    options.command(), startedAt, DrillResult.Machine.current(), target.describe(),
                    scenario.parameters(), settings(scenario));
            return new DrillResult(run, measured, DrillAnalysis.checks(observed.audit(), observed.deadLetters()), scenario.targets(measured),
                    drill.extras(), notes);
        } finally {
            if (options.external() == null) {
                target.close();
            }
        }
    }

    private static Observations observe(Scenario scenario, Drill drill, Options options) throws Exception {
        Target target = drill.target();
        Clock clock = drill.clock();
        Recorder recorder = drill.recorder();
        OrderBook orders = drill.orders();
        Books books = new Books(drill.http(), target);
        Progress progress = null;
        try (ConsumerLag lag = new ConsumerLag(target.bootstrapServers());
             MetricsSampler sampler = new MetricsSampler(drill.http(), target.paymentUrl(), clock, lag)) {
            if (options.progress() != null) {
                progress = new Progress(options.progress(), scenario.name(), drill, recorder, clock, sampler);
                progress.start();
            }
            drill.resetFaults();
            sampler.start();
            Map<String, Long> deadLettersBefore = lag.deadLetters();

            drill.phase("placing orders");
            Long before = lag.committed("payment-service", "order.events");
            int wanted = scenario.ordersNeeded();
            int refused = orders.place(new ApprovalClient(drill.http(), target.orderUrl(), target.paymentUrl(), target.tokens()),
                    wanted, scenario.members(), 15_000, 8, n -> drill.detail(n + "/" + wanted + " orders placed"));
            if (refused > 0) {
                drill.note(refused + " of " + wanted + " orders were refused by order-service while placing them");
            }
            waitForOrders(lag, before == null ? 0 : before, wanted - refused, Duration.ofSeconds(90), drill);

            RecoveryWatch watch = new RecoveryWatch(books, recorder, sampler, clock);
            Duration deadline = options.settleDeadline();
            Thread[] watcher = new Thread[1];
            drill.onRecovered(() -> {
                List<PreparedOrder> sent = orders.used();
                watcher[0] = new Thread(() -> watch.watch(sent, deadline), "drill-recovery");
                watcher[0].setDaemon(true);
                watcher[0].start();
            });
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

            drill.phase("audit");
            List<Attempt> attempts = recorder.attempts();
            LedgerAudit audit = books.audit(books.states(orders.used(), RecoveryWatch.paymentIds(attempts)));
            Map<String, Long> deadLetters = ConsumerLag.since(deadLettersBefore, lag.deadLetters());
            drill.phase("done");
            return new Observations(clock, clock.seconds(), attempts, recorder.notSentCount(), sampler.samples(),
                    sampler.transitions(), drill.timeline().marks(), audit, watch.result(), deadline, deadLetters);
        } finally {
            if (progress != null) {
                progress.stop();
            }
        }
    }

    private static Target startStack(Scenario scenario, Options options) {
        if (options.progress() != null) {
            options.progress().println("starting the stack for " + scenario.name() + " with " + scenario.settings()
                    + " (about 20-40 s) ...");
        }
        return OwnStack.start(scenario.settings(), options.dataDir());
    }

    /**
     * Until payment-service has consumed an OrderCreated for every order placed: a confirm for an order it has not
     * seen is a 404 that the client retries, and every retry spends the member's rate-limit allowance.
     */
    private static void waitForOrders(ConsumerLag lag, long before, int placed, Duration patience, Drill drill) {
        long until = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < until) {
            Long committed = lag.committed("payment-service", "order.events");
            long seen = committed == null ? 0 : committed - before;
            drill.detail("payment-service has seen " + seen + "/" + placed + " orders");
            if (seen >= placed) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
        }
        drill.note("payment-service had not consumed every order event " + patience.toSeconds()
                + " s after the orders were placed; the first confirms may see 404s (retried)");
    }

    private static Map<String, List<String>> settings(Scenario scenario) {
        Map<String, List<String>> s = new TreeMap<>();
        scenario.settings().forEach((c, args) -> s.put(c.id(), args));
        return s;
    }
}

package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillAnalysis;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.analysis.LedgerAudit;
import dev.payments.drills.analysis.Observations;
import dev.payments.drills.load.ApprovalClient;
import dev.payments.drills.load.Attempt;
import dev.payments.localstack.http.Http;
import dev.payments.drills.load.OrderBook;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ConsumerLag;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.PostgresCounters;
import dev.payments.drills.observe.ResourceSampler;
import dev.payments.drills.stack.BaselineApp;
import dev.payments.drills.stack.OwnStack;
import dev.payments.drills.stack.Target;
import dev.payments.localstack.LocalStackOptions;
import dev.payments.localstack.infra.EmbeddedPostgresServer;

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
                          Path dataDir, List<JvmVariant> jvms, Map<String, String> postgresSettings,
                          Duration healthTimeout) {

        /** One run with the launcher's laptop JVM options, PostgreSQL as the stack has it (the test suite's). */
        public Options(Target external, Duration settleDeadline, PrintStream progress, String command, Path dataDir) {
            this(external, settleDeadline, progress, command, dataDir,
                    List.of(new JvmVariant("laptop JVM", LocalStackOptions.DEFAULT_JVM_OPTIONS)), Map.of(),
                    Duration.ofMinutes(3));
        }
    }

    /** JVM options every service of an own stack runs with, and what to call them in a comparison. */
    public record JvmVariant(String label, List<String> options) {
    }

    /**
     * One run of several compared: what was different ("production JVM", "in-tx") and what it measured.
     *
     * @param baseline one of field report 000's broken structures, run to be compared with, not to pass
     */
    public record Labelled(String label, DrillResult result, boolean baseline) {

        public Labelled(String label, DrillResult result) {
            this(label, result, false);
        }
    }

    /**
     * A baseline has no recovery of any kind: what is unsettled when its load ends stays so, and waiting the whole
     * deadline for it would only cost time.
     */
    private static final Duration BASELINE_SETTLE = Duration.ofSeconds(15);

    private DrillRunner() {
    }

    /**
     * The scenario once per JVM variant, each on a stack of its own (or once on the external stack); after the first,
     * on the same stack, once against each of the scenario's {@link Scenario#baselines()}.
     *
     * @param done told of each run as soon as it is done
     */
    public static List<Labelled> runAll(Scenario scenario, Options options, java.util.function.Consumer<Labelled> done)
            throws Exception {
        List<JvmVariant> jvms = options.external() != null ? options.jvms().subList(0, 1) : options.jvms();
        List<Labelled> results = new ArrayList<>();
        for (JvmVariant jvm : jvms) {
            String label = options.external() != null ? "external stack" : jvm.label();
            // 000's broken structures run on the first run's stack before it closes, and are reported after it.
            List<Labelled> structures = new ArrayList<>();
            DrillResult ours = withBaseline(scenario, options, jvm, jvm == jvms.get(0) ? structures : null);
            Labelled run = new Labelled(scenario.baselines().isEmpty() ? label : "ours (" + label + ")", ours);
            results.add(run);
            done.accept(run);
            for (Labelled compared : structures) {
                results.add(compared);
                done.accept(compared);
            }
        }
        return results;
    }

    /** The scenario against one of 000's broken structures, started for it on {@code stack} and stopped after. */
    public static Labelled runBaseline(Scenario scenario, Target stack, Options options, JvmVariant jvm,
                                       BaselineStructure baseline) throws Exception {
        if (options.progress() != null) {
            options.progress().println("starting field report 000's baseline '" + baseline.structure() + "' with "
                    + baseline.springArgs() + ", " + jvm.label() + " ...");
        }
        try (BaselineApp app = BaselineApp.start(stack, baseline.structure(), jvm.options(), baseline.springArgs(),
                options.healthTimeout())) {
            Duration settle = options.settleDeadline().compareTo(BASELINE_SETTLE) < 0 ? options.settleDeadline()
                    : BASELINE_SETTLE;
            return new Labelled(baseline.label(), runOn(scenario, app, options, settle), true);
        }
    }

    /** One run: on the external stack, or on a stack of its own with the first JVM variant. */
    public static DrillResult run(Scenario scenario, Options options) throws Exception {
        return withBaseline(scenario, options, options.jvms().get(0), null);
    }

    /**
     * The scenario, then (on an own stack, if the scenario names one) the same on its baseline stack: the
     * comparison's numbers and checks join this run's report under a prefix of their own.
     */
    private static DrillResult withBaseline(Scenario scenario, Options options, JvmVariant jvm,
                                            List<Labelled> structures) throws Exception {
        DrillResult result = runOnce(scenario, options, jvm, structures);
        if (scenario.baseline().isEmpty() || options.external() != null) {
            return result;
        }
        Scenario baseline = scenario.baseline().get();
        if (options.progress() != null) {
            options.progress().println("now the same scenario on the baseline stack: " + baseline.description());
        }
        DrillResult compared;
        try {
            compared = runOnce(baseline, options, jvm, null);
        } catch (Exception e) {
            // This run's numbers stand; the comparison that could not be made is a failed check, not a lost report.
            List<DrillResult.Check> checks = new ArrayList<>(result.checks());
            checks.add(new DrillResult.Check("baseline ran", false, baseline.description() + ": " + e));
            return new DrillResult(result.run(), result.measured(), checks, result.targets(), result.extra(),
                    result.notes());
        }
        List<DrillResult.Check> checks = new ArrayList<>(result.checks());
        compared.checks().forEach(c -> checks.add(new DrillResult.Check("baseline: " + c.name(), c.passed(), c.detail())));
        Map<String, Object> extra = new java.util.LinkedHashMap<>(result.extra());
        extra.put("baseline", baselineSummary(compared));
        List<String> notes = new ArrayList<>(result.notes());
        notes.add("baseline run (" + baseline.description() + "): " + compared.run().target());
        return new DrillResult(result.run(), result.measured(), checks, result.targets(), extra, notes);
    }

    /** The baseline's headline numbers: enough to set beside this run's, the whole result is in its own run. */
    private static Map<String, Object> baselineSummary(DrillResult r) {
        Map<String, Object> s = new java.util.LinkedHashMap<>();
        s.put("description", r.run().description());
        s.put("ordersSent", r.measured().ordersSent());
        s.put("outcomes", r.measured().outcomes());
        s.put("latency", r.measured().latency());
        s.put("ledger", r.measured().audit().books().identity());
        s.put("ledgerHolds", r.measured().audit().books().holds());
        s.put("reconciliationLedger", r.measured().audit().reconciliationIdentity());
        s.put("recover", r.measured().recover());
        s.putAll(r.extra());
        s.put("passed", r.passed());
        return s;
    }

    /** @param structures where to add the runs of the scenario's 000 structures on this stack, or null for none */
    private static DrillResult runOnce(Scenario scenario, Options options, JvmVariant jvm, List<Labelled> structures)
            throws Exception {
        Target target = options.external() != null ? options.external() : startStack(scenario, options, jvm);
        try {
            DrillResult result = runOn(scenario, target, options, options.settleDeadline());
            if (structures != null) {
                for (BaselineStructure structure : scenario.baselines()) {
                    structures.add(runBaseline(scenario, target, options, jvm, structure));
                }
            }
            return result;
        } finally {
            if (options.external() == null) {
                target.close();
            }
        }
    }

    private static DrillResult runOn(Scenario scenario, Target target, Options options, Duration settleDeadline)
            throws Exception {
        String startedAt = Instant.now().toString();
        String loadBefore = DrillResult.Machine.loadAverage();
        Drill drill = new Drill(target, new Http(), new Clock(), new Recorder(),
                new OrderBook("drill-" + Long.toString(System.currentTimeMillis(), 36)));
        drill.note("machine load average (1/5/15 min) when the drill started: " + loadBefore);
        Observations observed = observe(scenario, drill, options.progress(), settleDeadline);
        DrillResult.Measurements measured = DrillAnalysis.measure(observed);
        List<String> notes = new ArrayList<>(drill.notes());
        notes.add("machine load average (1/5/15 min) when the audit ran: " + DrillResult.Machine.loadAverage()
                + " — other work on this machine competes with the stack and the load generator");
        notes.add(observed.audit().reconciliationNote());
        DrillResult.Run run = new DrillResult.Run(scenario.name(), scenario.fieldReport(), scenario.description(),
                options.command(), startedAt, DrillResult.Machine.current(), target.describe(),
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
             MetricsSampler sampler = new MetricsSampler(new Http(), target.paymentManagementUrl(), clock, lag);
             ResourceSampler resources = new ResourceSampler(target::processes, target.launcherProcess(),
                     new PostgresCounters(target.postgresJdbcUrl(), EmbeddedPostgresServer.USERNAME,
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
            Long before = lag.committed("payment-service", "order.events");
            ApprovalClient placing = new ApprovalClient(drill.http(), target.orderUrl(), target.paymentUrl(),
                    target.tokens());
            int warmup = scenario.warmupApprovals();
            int wanted = warmup + scenario.ordersNeeded();
            // First in the book, so the warm-up takes them before the scenario takes any.
            int refused = orders.placeOnePerMember(placing, warmup, "warmup", 15_000, 8,
                    n -> drill.detail(n + "/" + wanted + " orders placed"));
            refused += orders.place(placing, scenario.ordersNeeded(), scenario.members(), 15_000, 8,
                    n -> drill.detail((warmup + n) + "/" + wanted + " orders placed"));
            if (refused > 0) {
                drill.note(refused + " of " + wanted + " orders were refused by order-service while placing them");
            }
            if (target.learnsOrdersFromKafka()) {
                waitForOrders(lag, before == null ? 0 : before, wanted - refused, Duration.ofSeconds(90), drill);
            }

            RecoveryWatch watch = new RecoveryWatch(books, recorder, sampler, clock);
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

    private static OwnStack startStack(Scenario scenario, Options options, JvmVariant jvm) {
        if (options.progress() != null) {
            options.progress().println("starting the stack for " + scenario.name() + " with " + scenario.settings()
                    + ", " + jvm.label() + " " + jvm.options() + " (about 20-60 s) ...");
        }
        return OwnStack.start(scenario.settings(), scenario.replicas(), options.dataDir(), jvm.options(),
                options.postgresSettings(), options.healthTimeout(), scenario.classDataSharing());
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

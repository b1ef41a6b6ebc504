package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.stack.BaselineApp;
import dev.payments.drills.stack.OwnStack;
import dev.payments.drills.stack.Target;
import dev.payments.localstack.LocalStackOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a scenario: which stacks (its own, one per JVM variant, or an external one), and beside it the baseline stack
 * or field report 000's broken structures it is compared with. Each run itself is a {@link ScenarioRun}.
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
            return new Labelled(baseline.label(), ScenarioRun.on(scenario, app, options.progress(), options.command(), settle), true);
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
            DrillResult result = ScenarioRun.on(scenario, target, options.progress(), options.command(),
                    options.settleDeadline());
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

    private static OwnStack startStack(Scenario scenario, Options options, JvmVariant jvm) {
        if (options.progress() != null) {
            options.progress().println("starting the stack for " + scenario.name() + " with " + scenario.settings()
                    + ", " + jvm.label() + " " + jvm.options() + " (about 20-60 s) ...");
        }
        return OwnStack.start(scenario.settings(), scenario.replicas(), options.dataDir(), jvm.options(),
                options.postgresSettings(), options.healthTimeout(), scenario.classDataSharing());
    }
}

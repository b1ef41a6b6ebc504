package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.Stats;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario whose parameters are its command-line options: a subclass names itself with picocli's {@code @Command}
 * and declares each parameter as an {@code @Option} field whose initial value is the default. The report lists every
 * option with the value in force, and the services' settings are computed from them ({@link #configure}).
 */
abstract class BaseScenario implements Scenario {

    /** What a command's description starts with: a field report, or a capability and a colon. */
    private static final Pattern SOURCE = Pattern.compile("\\d{3}|[a-z][a-z-]*(?=:)");

    @Override
    public String name() {
        return getClass().getAnnotation(Command.class).name();
    }

    /** The first word of the command's description, so that {@code --help} says it too: "000", "relay". */
    @Override
    public String fieldReport() {
        String description = getClass().getAnnotation(Command.class).description()[0];
        Matcher source = SOURCE.matcher(description);
        if (!source.lookingAt()) {
            throw new IllegalStateException(name() + "'s description names no field report or capability first");
        }
        return source.group();
    }

    /** Every option in force, by its name without the dashes, in the order the class declares them. */
    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        for (OptionSpec option : CommandSpec.forAnnotatedObject(this).options()) {
            if (!option.usageHelp() && !option.versionHelp()) {
                parameters.put(option.longestName().replaceFirst("^-+", ""), option.getValue());
            }
        }
        return parameters;
    }

    /** A fresh instance with every option in force here: the start of a {@link #baseline()} that changes a few. */
    @SuppressWarnings("unchecked")
    <S extends BaseScenario> S copy() {
        S copy = (S) Scenarios.parse(name());
        CommandSpec to = CommandSpec.forAnnotatedObject(copy);
        for (OptionSpec option : CommandSpec.forAnnotatedObject(this).options()) {
            if (!option.usageHelp() && !option.versionHelp()) {
                to.findOption(option.longestName()).setValue(option.getValue());
            }
        }
        return copy;
    }

    @Override
    public final Map<Component, List<String>> settings() {
        Settings settings = new Settings();
        configure(settings);
        return settings.byComponent;
    }

    /** The services' settings this scenario needs on a stack it starts itself (none by default). */
    protected void configure(Settings settings) {
    }

    /** Spring properties per service, kept in the order the scenario set them, so the report lists them so. */
    protected static final class Settings {

        private final Map<Component, List<String>> byComponent = new LinkedHashMap<>();

        Settings set(Component component, String property, Object value) {
            byComponent.computeIfAbsent(component, c -> new ArrayList<>()).add("--" + property + "=" + value);
            return this;
        }
    }

    /** Not settled before the deadline is a miss, unless nothing was unsettled to begin with. */
    static Boolean settledWithin(Measurements r, double goal) {
        Double settled = r.recover().allSettledAfter();
        if (settled == null) {
            return r.recover().unsettledAtRecovery() == null ? null : r.recover().unsettledAtRecovery() == 0;
        }
        return settled <= goal;
    }

    static String settledText(Measurements r) {
        Double settled = r.recover().allSettledAfter();
        return settled != null ? Stats.s(settled) : "not within " + (long) r.recover().settleDeadlineSeconds()
                + " s (" + r.recover().unsettledAtRecovery() + " unsettled at the recovery)";
    }

    static Boolean atMost(Double measured, double goal) {
        return measured == null ? null : measured <= goal;
    }
}

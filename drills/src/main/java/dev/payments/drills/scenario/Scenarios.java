package dev.payments.drills.scenario;

import picocli.CommandLine;

import java.util.List;
import java.util.function.Supplier;

/**
 * Every scenario the drills know, in the order {@code drills --help} lists them. A new scenario is its class
 * ({@code docs/drills.md}, "Adding a scenario") and one line here.
 */
public final class Scenarios {

    private static final List<Supplier<Scenario>> ALL = List.of(
            PgSlow::new,
            PgSilent::new,
            PgDown::new,
            PgFlaky::new,
            PgLostResponse::new,
            PgLateBooking::new,
            RefundStorm::new,
            Capacity::new,
            Overload::new,
            DbOutage::new,
            KafkaOutage::new,
            Crash::new,
            SlotLost::new,
            LeaseHolderFrozen::new,
            Renewals::new,
            ScaleOut::new,
            WarmStart::new,
            Soak::new);

    private Scenarios() {
    }

    /** A fresh instance of each, with its defaults: picocli sets the options of the one the command line names. */
    public static List<Scenario> all() {
        return ALL.stream().map(Supplier::get).toList();
    }

    /** The scenario {@code name} with these options, as {@code drills <name> <options>} would run it. */
    public static Scenario parse(String name, String... options) {
        Scenario scenario = all().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No scenario " + name + "; there are "
                        + all().stream().map(Scenario::name).toList()));
        new CommandLine(scenario).parseArgs(options);
        return scenario;
    }
}

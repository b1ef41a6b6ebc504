package dev.payments.drills.scenario;

import picocli.CommandLine.Option;

/** A part of the infrastructure stopped cleanly under load and started again {@code --outage} seconds later. */
abstract class StoppedOutage extends Outage {

    private final String component;
    @Option(names = "--outage", description = "Seconds it stays down.")
    int outageSeconds;

    StoppedOutage(String component, int defaultOutageSeconds) {
        this.component = component;
        this.outageSeconds = defaultOutageSeconds;
    }

    @Override
    String component() {
        return component;
    }

    @Override
    boolean kill() {
        return false;
    }

    @Override
    int outageSeconds() {
        return outageSeconds;
    }
}

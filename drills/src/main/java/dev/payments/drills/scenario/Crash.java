package dev.payments.drills.scenario;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** A service killed with SIGKILL mid-flight and restarted at once; nothing it had in flight may be lost. */
@Command(name = "crash", description = "outage: a service killed with kill -9 mid-flight, then restarted.")
final class Crash extends Outage {

    @Option(names = "--service", description = "The service to kill.")
    String service = "payment-service";

    Crash() {
        rate = 20;
        // About rate x latency approvals are in flight at the kill.
        pgLatencyMs = 1000;
    }

    @Override
    String component() {
        return service;
    }

    @Override
    boolean kill() {
        return true;
    }

    @Override
    int outageSeconds() {
        return 0;
    }
}

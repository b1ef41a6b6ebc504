package dev.payments.drills.scenario;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Issue 6: PostgreSQL (every service's database) stopped under load, started again. */
@Command(name = "db-outage", description = "PostgreSQL stopped under load, then back.")
final class DbOutage extends Outage {

    @Option(names = "--outage", description = "Seconds PostgreSQL stays down.")
    int outageSeconds = 20;

    @Override
    String component() {
        return "postgres";
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

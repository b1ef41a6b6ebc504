package dev.payments.drills.scenario;

import picocli.CommandLine.Command;

/** Issue 6: PostgreSQL (every service's database) stopped under load, started again. */
@Command(name = "db-outage", description = "PostgreSQL stopped under load, then back.")
final class DbOutage extends StoppedOutage {

    DbOutage() {
        super("postgres", 20);
    }
}

package dev.payments.drills.scenario;

import dev.payments.drills.stack.ConnectionHog;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.sql.SQLException;
import java.time.Duration;

/**
 * PostgreSQL (every service's database) taken away under load and given back. Either the server is
 * stopped ({@code --mode stop}: connections refused, the pools wait out their timeout per attempt), or it keeps
 * running with every {@code max_connections} slot taken by the drill and the services' sessions cut
 * ({@code --mode exhaust}: each new connection refused at once with 53300, as when another client took every slot, and
 * sessions ended with 57P01 as in a failover). No consumer may dead-letter an event meanwhile.
 */
@Command(name = "db-outage", description = "outage: PostgreSQL stopped (or its connections exhausted) under load, then back.")
final class DbOutage extends StoppedOutage {

    enum Mode { stop, exhaust }

    @Option(names = "--mode", description = "stop: the server stopped; exhaust: every connection slot taken and the "
            + "services' sessions ended, the server running. Default: ${DEFAULT-VALUE}.")
    Mode mode = Mode.stop;

    private ConnectionHog hog;

    DbOutage() {
        super("postgres", 20);
    }

    @Override
    String takenAway() {
        return mode == Mode.stop ? "stopped" : "connections exhausted (every slot taken, sessions ended)";
    }

    @Override
    void takeAway(Drill drill) {
        if (mode == Mode.stop) {
            super.takeAway(drill);
            return;
        }
        hog = new ConnectionHog(drill.target().endpoints().postgresJdbcUrl(), EmbeddedPostgresServer.USERNAME,
                EmbeddedPostgresServer.PASSWORD);
        try {
            int limit = hog.maxConnections();
            drill.mark("exhaust postgres");
            int held = hog.take(Duration.ofMillis(200));
            drill.mark("exhaust postgres done");
            drill.note("max_connections " + limit + ": the drill held " + held + " slots once no service session was "
                    + "left (" + hog.terminated() + " sessions ended to get there)");
        } catch (SQLException e) {
            hog.close();
            throw new IllegalStateException("could not exhaust PostgreSQL's connections", e);
        }
    }

    @Override
    void giveBack(Drill drill) {
        if (mode == Mode.stop) {
            super.giveBack(drill);
            return;
        }
        int terminated = hog.terminated();
        drill.mark("release postgres");
        hog.close();
        drill.mark("release postgres done");
        drill.note(terminated + " service sessions ended while the slots were held");
        drill.extra("sessionsEnded", terminated);
    }
}

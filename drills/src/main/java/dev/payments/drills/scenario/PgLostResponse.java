package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * 002: the PG approves and the answer is lost. First with a status query that works (the request thread settles it),
 * then with the status query silent too (UNKNOWN, settled later by reconciliation once the PG answers again).
 */
@Command(name = "pg-lost-response", description = "002: approved, answer lost; status query working, then silent.")
final class PgLostResponse extends BaseScenario {

    @Option(names = "--per-phase", description = "Concurrent approvals per phase (each costs the read timeout).")
    int perPhase = 8;
    @Option(names = "--drop-mode", description = "HANG (read timeout) or RESET (TCP reset).")
    String dropMode = "HANG";

    @Override
    public String description() {
        return "PG approves and loses every answer (" + dropMode + "): " + perPhase
                + " concurrent with the status query working, then " + perPhase
                + " with the status query silent too, then the PG recovers";
    }

    @Override
    public int ordersNeeded() {
        return 2 * perPhase;
    }

    @Override
    public void run(Drill drill) {
        drill.fault("{\"operation\":\"confirm\",\"dropResponseRate\":1.0,\"dropMode\":\"" + dropMode + "\"}");
        drill.burst(perPhase, "lost-answer-query-works");
        drill.mark("status query silenced");
        drill.pgFaults("[{\"operation\":\"confirm\",\"dropResponseRate\":1.0,\"dropMode\":\"" + dropMode + "\"},"
                        + "{\"operation\":\"query\",\"hang\":true}]");
        drill.burst(perPhase, "lost-answer-query-silent");
        drill.clearFaults();
    }

    @Override
    public List<Target> targets(Measurements r) {
        var a = r.audit().books();
        return List.of(
                new Target("every PG approval ends PAID (or cancelled/incident)", a.pgApprovals() + " accounted",
                        a.identity(), a.lost() == 0 && a.inFlight() == 0),
                new Target("every UNKNOWN settled after the PG recovers", "<= 30 s", settledText(r),
                        settledWithin(r, 30)));
    }
}

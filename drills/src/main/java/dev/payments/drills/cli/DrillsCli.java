package dev.payments.drills.cli;

import dev.payments.drills.report.Reports;
import dev.payments.drills.report.SummaryTable;
import dev.payments.drills.scenario.Capacity;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.scenario.DrillRunner;
import dev.payments.drills.scenario.Outage;
import dev.payments.drills.scenario.PgFlaky;
import dev.payments.drills.scenario.PgLostResponse;
import dev.payments.drills.scenario.PgSilent;
import dev.payments.drills.scenario.PgSlow;
import dev.payments.drills.scenario.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code drills <scenario> [options]}. Exit 0: nothing lost, nothing doubled, the ledger holds; 1: one of those
 * failed; 2: the drill itself could not run.
 */
@Command(name = "drills", mixinStandardHelpOptions = true, version = "drills 0.1.0",
        description = "Reproduces a field report's failure against the whole system and measures it.",
        subcommands = {DrillsCli.PgSlowCommand.class, DrillsCli.PgSilentCommand.class, DrillsCli.PgFlakyCommand.class,
                DrillsCli.PgLostResponseCommand.class, DrillsCli.CapacityCommand.class, DrillsCli.DbOutageCommand.class,
                DrillsCli.KafkaOutageCommand.class, DrillsCli.CrashCommand.class})
public final class DrillsCli implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new DrillsCli()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    abstract static class ScenarioCommand implements Callable<Integer> {

        @Mixin
        CommonOptions common;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        abstract Scenario scenario();

        @Override
        public Integer call() {
            String command = "drills " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
            try {
                Scenario scenario = scenario();
                DrillResult result = DrillRunner.run(scenario, new DrillRunner.Options(common.external(),
                        Duration.ofSeconds(common.settleSeconds), common.noProgress ? null : System.err, command,
                        common.dataDir));
                Path html = Reports.write(result, common.reportDir);
                System.out.print(SummaryTable.render(result));
                System.out.println("report: " + html.toAbsolutePath() + " (and .json beside it)");
                return result.passed() ? 0 : 1;
            } catch (Exception e) {
                System.err.println("\nthe drill could not run: " + e);
                e.printStackTrace();
                return 2;
            }
        }
    }

    @Command(name = "pg-slow", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "000: PG 5 s late, pool 10, 50 then 100 concurrent.")
    static final class PgSlowCommand extends ScenarioCommand {
        @Option(names = "--latency-ms", defaultValue = "5000") int latency;
        @Option(names = "--first", defaultValue = "50") int first;
        @Option(names = "--second", defaultValue = "100") int second;
        @Option(names = "--pause", defaultValue = "30", description = "Seconds between the bursts (000: 90).") int pause;
        @Option(names = "--pool", defaultValue = "10") int pool;
        @Option(names = "--bulkhead", defaultValue = "200",
                description = "pg-approve bulkhead (default 20 in the service; 000 had none, Tomcat's 200 threads).")
        int bulkhead;

        @Override
        Scenario scenario() {
            return new PgSlow(latency, first, second, pause, pool, bulkhead);
        }
    }

    @Command(name = "pg-silent", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "000/002: PG accepts and never answers; breaker; recovery.")
    static final class PgSilentCommand extends ScenarioCommand {
        @Option(names = "--concurrent", defaultValue = "50") int concurrent;
        @Option(names = "--rate", defaultValue = "100", description = "Arrivals per second beside the burst.") double rate;
        @Option(names = "--open-window", defaultValue = "10", description = "Seconds of arrivals with the breaker open.")
        int openWindow;
        @Option(names = "--max-wait-open", defaultValue = "30") int maxWait;
        @Option(names = "--trickle", defaultValue = "40", description = "Seconds of 1/s after the PG recovers.") int trickle;

        @Override
        Scenario scenario() {
            return new PgSilent(concurrent, rate, openWindow, maxWait, trickle);
        }
    }

    @Command(name = "pg-flaky", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "001: request success 60 %%, async success 70 %%.")
    static final class PgFlakyCommand extends ScenarioCommand {
        @Option(names = "--rate", defaultValue = "10") double rate;
        @Option(names = "--seconds", defaultValue = "60") int seconds;

        @Override
        Scenario scenario() {
            return new PgFlaky(rate, seconds);
        }
    }

    @Command(name = "pg-lost-response", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "002: approved, answer lost; status query working, then silent.")
    static final class PgLostResponseCommand extends ScenarioCommand {
        @Option(names = "--per-phase", defaultValue = "8") int perPhase;
        @Option(names = "--drop-mode", defaultValue = "HANG", description = "HANG (read timeout) or RESET.") String mode;

        @Override
        Scenario scenario() {
            return new PgLostResponse(perPhase, mode);
        }
    }

    @Command(name = "capacity", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "000's open question: PG 0.3 s, 50 -> 300 concurrent, and arrival rates.")
    static final class CapacityCommand extends ScenarioCommand {
        @Option(names = "--latency-ms", defaultValue = "300") int latency;
        @Option(names = "--concurrency", defaultValue = "50,100,200,300", split = ",") List<Integer> concurrency;
        @Option(names = "--rates", defaultValue = "25,50,100,150", split = ",") List<Integer> rates;
        @Option(names = "--step-seconds", defaultValue = "15") int step;
        @Option(names = "--warmup-seconds", defaultValue = "10") int warmup;
        @Option(names = "--bulkhead", defaultValue = "400") int bulkhead;
        @Option(names = "--tps-guess", defaultValue = "120",
                description = "Orders placed per closed-loop second (they are placed before the load).") int tpsGuess;

        @Override
        Scenario scenario() {
            return new Capacity(latency, concurrency, rates, step, warmup, bulkhead, tpsGuess);
        }
    }

    @Command(name = "db-outage", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "PostgreSQL stopped under load, then back.")
    static final class DbOutageCommand extends ScenarioCommand {
        @Option(names = "--rate", defaultValue = "10") double rate;
        @Option(names = "--before", defaultValue = "10") int before;
        @Option(names = "--outage", defaultValue = "20") int outage;
        @Option(names = "--after", defaultValue = "30") int after;
        @Option(names = "--pg-latency-ms", defaultValue = "300") int pgLatency;

        @Override
        Scenario scenario() {
            return new Outage("db-outage", "postgres", "stop", rate, before, outage, after, pgLatency);
        }
    }

    @Command(name = "kafka-outage", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "The Kafka broker stopped for 60 s under load, then back.")
    static final class KafkaOutageCommand extends ScenarioCommand {
        @Option(names = "--rate", defaultValue = "10") double rate;
        @Option(names = "--before", defaultValue = "10") int before;
        @Option(names = "--outage", defaultValue = "60") int outage;
        @Option(names = "--after", defaultValue = "30") int after;
        @Option(names = "--pg-latency-ms", defaultValue = "300") int pgLatency;

        @Override
        Scenario scenario() {
            return new Outage("kafka-outage", "kafka", "stop", rate, before, outage, after, pgLatency);
        }
    }

    @Command(name = "crash", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "A service killed with kill -9 mid-flight, then restarted.")
    static final class CrashCommand extends ScenarioCommand {
        @Option(names = "--service", defaultValue = "payment-service") String service;
        @Option(names = "--rate", defaultValue = "20") double rate;
        @Option(names = "--before", defaultValue = "10", description = "Seconds of load before the kill.") int before;
        @Option(names = "--after", defaultValue = "30") int after;
        @Option(names = "--pg-latency-ms", defaultValue = "1000",
                description = "PG latency, so that about rate x latency approvals are in flight at the kill.")
        int pgLatency;

        @Override
        Scenario scenario() {
            return new Outage("crash", service, "kill", rate, before, 0, after, pgLatency);
        }
    }
}

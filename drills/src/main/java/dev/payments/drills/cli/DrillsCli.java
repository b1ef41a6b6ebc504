package dev.payments.drills.cli;

import dev.payments.drills.report.Comparison;
import dev.payments.drills.report.Reports;
import dev.payments.drills.report.SummaryTable;
import dev.payments.drills.scenario.DrillRunner;
import dev.payments.drills.scenario.Scenario;
import dev.payments.drills.scenario.Scenarios;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code drills <scenario> [options]}: one subcommand per scenario of {@link Scenarios}, each with its own options and
 * the common ones. Exit 0: nothing lost, nothing doubled, the ledger holds; 1: one of those failed; 2: the drill
 * itself could not run.
 */
@Command(name = "drills", mixinStandardHelpOptions = true, version = "drills 0.1.0",
        description = "Reproduces a field report's failure against the whole system and measures it.")
public final class DrillsCli {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommonOptions common = new CommonOptions();
        CommandLine cli = new CommandLine(new DrillsCli());
        for (Scenario scenario : Scenarios.all()) {
            CommandLine subcommand = new CommandLine(scenario);
            subcommand.getCommandSpec().mixinStandardHelpOptions(true);
            subcommand.getCommandSpec().usageMessage().showDefaultValues(true);
            subcommand.addMixin("common", common);
            cli.addSubcommand(subcommand);
        }
        cli.setExecutionStrategy(parsed -> execute(parsed, common));
        return cli;
    }

    private static int execute(ParseResult parsed, CommonOptions common) {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
            return help;
        }
        if (!parsed.hasSubcommand()) {
            CommandLine cli = parsed.commandSpec().commandLine();
            cli.usage(cli.getOut());
            return 0;
        }
        Scenario scenario = (Scenario) parsed.subcommand().commandSpec().userObject();
        String command = "drills " + String.join(" ", parsed.originalArgs());
        try {
            List<DrillRunner.JvmVariant> variants = common.jvms();
            boolean several = variants.size() > 1 || !scenario.baselines().isEmpty();
            // Each run's report is written as soon as it is done: a long comparison stopped half-way keeps its runs.
            List<DrillRunner.Labelled> runs = DrillRunner.runAll(scenario, new DrillRunner.Options(common.external(),
                    Duration.ofSeconds(common.settleSeconds), common.noProgress ? null : System.err, command,
                    common.dataDir, variants, common.postgresSettings(),
                    Duration.ofSeconds(common.healthTimeoutSeconds)), run -> {
                Path html = Reports.write(run.result(), common.reportDir,
                        several ? "-" + run.label().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase() : "");
                if (several) {
                    System.out.print("\n### " + run.label());
                }
                System.out.print(SummaryTable.render(run.result()));
                System.out.println("report: " + html.toAbsolutePath() + " (and .json beside it)");
                System.out.flush();
            });
            if (runs.size() > 1) {
                System.out.print(Comparison.render(runs));
                System.out.println("compared: " + Reports.writeComparison(runs, common.reportDir).toAbsolutePath());
            }
            // A baseline is run to show how it fails; the exit code is ours.
            return runs.stream().allMatch(run -> run.baseline() || run.result().passed()) ? 0 : 1;
        } catch (Exception e) {
            System.err.println("\nthe drill could not run: " + e);
            e.printStackTrace();
            return 2;
        }
    }
}

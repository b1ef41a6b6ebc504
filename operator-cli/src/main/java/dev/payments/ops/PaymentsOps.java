package dev.payments.ops;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.URI;

/**
 * {@code payments-ops}: what an operator does by hand, as commands over reconciliation-service's API
 * (docs/runbooks/dead-letters.md, docs/runbooks/replay.md). Every call carries the operator's bearer token; the
 * service records its subject. Prints the service's JSON answer; exits 1 with the problem+json on a refusal.
 */
@Command(name = "payments-ops", mixinStandardHelpOptions = true,
        description = "Operator commands: dead letters and order replay (reconciliation-service's API).",
        subcommands = {DeadLettersCommand.class, ReplayCommand.class})
public final class PaymentsOps {

    @Option(names = "--url", description = "reconciliation-service's API (default: $RECONCILIATION_URL, else ${DEFAULT-VALUE})",
            defaultValue = "${env:RECONCILIATION_URL:-http://localhost:8084}")
    URI url;

    @Option(names = "--token", description = "an operator's access token (default: $OPERATOR)",
            defaultValue = "${env:OPERATOR}")
    String token;

    Api api(PrintWriter out, PrintWriter err) {
        if (token == null || token.isBlank()) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "no operator token: pass --token or set OPERATOR (local-stack/token.sh operator operator-1)");
        }
        return new Api(url, token, out, err);
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs one command line, writing to {@code out} and {@code err}; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new PaymentsOps());
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }
}

package dev.payments.ops;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.Callable;

/** {@code dead-letters list|redrive <group>} (docs/runbooks/dead-letters.md). */
@Command(name = "dead-letters", description = "A consumer group's dead letters: list them, re-drive them.",
        subcommands = {DeadLettersCommand.List.class, DeadLettersCommand.Redrive.class})
final class DeadLettersCommand {

    @ParentCommand
    PaymentsOps root;

    @Command(name = "list", description = "The group's dead letters, oldest first failure first.")
    static final class List implements Callable<Integer> {

        @ParentCommand
        DeadLettersCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "GROUP", description = "consumer group (= the service's name), e.g. order-service")
        String group;

        @Option(names = "--status", description = "WAITING or REDRIVEN (default: both)")
        String status;

        @Option(names = "--page", defaultValue = "0")
        int page;

        @Option(names = "--size", defaultValue = "50")
        int size;

        @Override
        public Integer call() {
            String query = "?page=" + page + "&size=" + size + (status == null ? "" : "&status=" + encode(status));
            return parent.root.api(spec.commandLine().getOut(), spec.commandLine().getErr())
                    .get("/api/dead-letters/" + encode(group) + query);
        }
    }

    @Command(name = "redrive", description = "Hand one dead letter, or every one of an order, back to the group.")
    static final class Redrive implements Callable<Integer> {

        @ParentCommand
        DeadLettersCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "GROUP", description = "consumer group (= the service's name), e.g. order-service")
        String group;

        @ArgGroup(multiplicity = "1")
        Which which;

        static final class Which {
            @Option(names = "--event", required = true, description = "the letter's eventId (from list)")
            UUID event;

            @Option(names = "--order", required = true, description = "every letter of this order, oldest first")
            UUID order;
        }

        @Override
        public Integer call() {
            String path = "/api/dead-letters/" + encode(group)
                    + (which.event != null ? "/" + which.event : "/orders/" + which.order) + "/redrive";
            return parent.root.api(spec.commandLine().getOut(), spec.commandLine().getErr()).post(path, null);
        }
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}

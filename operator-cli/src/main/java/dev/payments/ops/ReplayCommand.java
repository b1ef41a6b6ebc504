package dev.payments.ops;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

/** {@code replay order <orderId> --group G [--apply]} (docs/runbooks/replay.md §1). */
@Command(name = "replay", description = "Replay events to a consumer group.", subcommands = ReplayCommand.Order.class)
final class ReplayCommand {

    @ParentCommand
    PaymentsOps root;

    @Command(name = "order", description = "One order's events to one group: a dry run unless --apply.")
    static final class Order implements Callable<Integer> {

        @ParentCommand
        ReplayCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "ORDER_ID")
        UUID orderId;

        @Option(names = "--group", required = true, description = "consumer group, e.g. order-service")
        String group;

        @Option(names = "--apply", description = "hand the events to the group (default: only say what it would apply)")
        boolean apply;

        @Override
        public Integer call() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("group", group);
            body.put("dryRun", !apply);
            return parent.root.api(spec.commandLine().getOut(), spec.commandLine().getErr())
                    .post("/api/replay/orders/" + orderId, body);
        }
    }
}

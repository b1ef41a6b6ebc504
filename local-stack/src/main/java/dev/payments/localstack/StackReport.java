package dev.payments.localstack;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;

/** What the launcher prints once the stack is up: where everything is, how long it took, what it costs. */
final class StackReport {

    private static final String ROW = "  %-24s %-48s %-10s %11s %9s %9s%n";

    private StackReport() {
    }

    static void print(RunningStack stack, PrintStream out) {
        out.println();
        out.printf("Local stack is up after %.1f s. Data in %s, logs in %s%n", seconds(stack.startup()),
                stack.dataDir(), stack.dataDir().resolve("logs"));
        out.println();
        MemoryUsage memory = stack.memory();
        out.printf(ROW, "COMPONENT", "URL", "PID", "READY AFTER", "RSS", "PSS");
        for (ComponentStatus status : stack.status()) {
            String url = switch (status.component()) {
                case POSTGRES -> status.url().replaceFirst("/postgres$", "/<database>");
                default -> status.url();
            };
            out.printf(ROW, status.name(), url,
                    status.component() == Component.KAFKA ? "launcher" : status.pid().isPresent() ? String.valueOf(status.pid().getAsLong()) : "-",
                    status.state() == ComponentState.RUNNING
                            ? status.startup().map(startup -> String.format("%.1f s", seconds(startup))).orElse("")
                            : status.state().name(),
                    status.residentBytes() > 0 ? ResidentMemory.format(status.residentBytes()) : "",
                    status.proportionalBytes() > 0 ? ResidentMemory.format(status.proportionalBytes()) : "");
            if (status.component().hasManagementPort()) {
                out.printf(ROW, "  management", stack.managementUrlOfReplica(status.name()) + "/actuator/health",
                        "", "", "", "");
            }
        }
        stack.loadBalancer().ifPresent(balancer -> out.printf(ROW, "load-balancer (haproxy)",
                balancer.describe(), balancer.pid().isPresent() ? String.valueOf(balancer.pid().getAsLong()) : "-", "", "",
                ""));
        if (stack.components().contains(Component.PG_SIMULATOR)) {
            out.printf(ROW, "  pg-simulator admin", stack.pgSimulatorAdminUrl() + "/admin/faults", "", "", "", "");
        }
        out.printf(ROW, "launcher (with kafka)", stack.controlUrl().map(url -> url + "/status").orElse("(no control endpoint)"),
                ProcessHandle.current().pid(), "", ResidentMemory.format(memory.launcherResident()),
                ResidentMemory.format(memory.launcherProportional()));
        out.printf(ROW, "TOTAL", "", "", "", ResidentMemory.format(memory.totalResident()),
                ResidentMemory.format(memory.totalProportional()));
        out.println("  (RSS counts shared pages once per process, e.g. PostgreSQL's shared buffers in every backend;"
                + " PSS shares them out)");
        out.printf("  databases %s, user postgres, password postgres%n", databases(stack));
        out.println();
        if (stack.components().contains(Component.AUTH_SERVER)) {
            String issuer = stack.portOf(Component.AUTH_SERVER) == Component.AUTH_SERVER.defaultPort()
                    ? "" : " --issuer " + stack.issuerUrl();
            out.println("Tokens (local profile: operator-1, and members who sign up by signing in as member-<anything>):");
            out.println("  MEMBER=$(local-stack/token.sh member member-1" + issuer + ")");
            out.println("  OPERATOR=$(local-stack/token.sh operator operator-1" + issuer + ")");
            if (stack.components().contains(Component.OPERATOR_CONSOLE)) {
                out.println("Operator console: " + stack.urlOf(Component.OPERATOR_CONSOLE)
                        + "/ (sign in as operator-1 / local-operator-password, or viewer-1 / local-viewer-password)");
            }
            out.println();
        }
        out.println("Happy path (replace <orderId> and <paymentId> with the ids the calls return):");
        String order = "localhost:" + stack.portOf(Component.ORDER_SERVICE);
        out.printf("  curl -s -XPOST %s/api/orders -H \"Authorization: Bearer $MEMBER\" -H 'Content-Type: application/json' "
                + "-d '{\"amount\":15000,\"currency\":\"KRW\",\"orderName\":\"Annual plan\"}'%n", order);
        out.printf("  curl -s -XPOST localhost:%d/api/payments/confirm -H \"Authorization: Bearer $MEMBER\" "
                + "-H 'Content-Type: application/json' -H 'Idempotency-Key: k-1' "
                + "-d '{\"orderId\":\"<orderId>\",\"paymentKey\":\"pk-1\",\"amount\":15000}'%n",
                stack.portOf(Component.PAYMENT_SERVICE));
        out.printf("  curl -s %s/api/orders/<orderId> -H \"Authorization: Bearer $MEMBER\"%n", order);
        out.printf("  curl -s 'localhost:%d/api/notifications?orderId=<orderId>' -H \"Authorization: Bearer $MEMBER\"%n",
                stack.portOf(Component.NOTIFICATION_SERVICE));
        out.printf("  curl -s localhost:%d/api/reconciliation/payments/<paymentId> -H \"Authorization: Bearer $OPERATOR\"%n",
                stack.portOf(Component.RECONCILIATION_SERVICE));
        stack.controlUrl().ifPresent(control -> {
            out.println();
            out.println("Drills: POST " + control + "/{component}/stop|start|restart|kill, GET " + control + "/status, e.g.");
            out.println("  curl -s -XPOST " + control + "/payment-service/kill");
        });
        out.println();
        out.println("Ctrl-C stops everything.");
        out.flush();
    }

    private static String databases(RunningStack stack) {
        return stack.components().stream().map(Component::database).flatMap(Optional::stream)
                .collect(Collectors.joining(", "));
    }

    private static double seconds(Duration duration) {
        return duration == null ? 0 : duration.toMillis() / 1000.0;
    }
}

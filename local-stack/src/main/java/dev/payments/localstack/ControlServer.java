package dev.payments.localstack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operators' control surface, on loopback only:
 * <pre>
 * GET  /control/status
 * POST /control/{component}/stop|start|restart|kill|freeze|thaw
 * </pre>
 * A start or restart answers once the component is ready again, so a drill script knows when the outage ended.
 */
final class ControlServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControlServer.class);
    private static final String PREFIX = "/control";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RunningStack stack;
    private final HttpServer server;
    private final ExecutorService executor;

    private ControlServer(RunningStack stack, HttpServer server, ExecutorService executor) {
        this.stack = stack;
        this.server = server;
        this.executor = executor;
    }

    /** Binds 127.0.0.1:{@code port} (0 picks a free port). */
    static ControlServer start(RunningStack stack, int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
            // Start and restart block until the component is healthy; each request gets its own thread.
            ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
                Thread thread = new Thread(runnable, "local-stack-control");
                thread.setDaemon(true);
                return thread;
            });
            server.setExecutor(executor);
            ControlServer control = new ControlServer(stack, server, executor);
            server.createContext(PREFIX, control::handle);
            server.start();
            log.info("Control endpoint on http://127.0.0.1:{}{}/status", control.port(), PREFIX);
            return control;
        } catch (IOException e) {
            throw new UncheckedIOException("control endpoint could not bind port " + port, e);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            List<String> segments = List.of(path.substring(PREFIX.length()).replaceAll("^/+|/+$", "").split("/+"));
            String method = exchange.getRequestMethod();
            if (segments.equals(List.of("status"))) {
                if (!method.equals("GET")) {
                    respond(exchange, 405, error("use GET /control/status"));
                    return;
                }
                respond(exchange, 200, stackView());
                return;
            }
            if (segments.size() != 2) {
                respond(exchange, 404, error("use GET /control/status or POST /control/{component}/{stop|start|restart|kill|freeze|thaw}"));
                return;
            }
            String name = segments.get(0);
            if (!stack.names().contains(name) && Component.fromId(name).filter(stack.components()::contains).isEmpty()) {
                respond(exchange, 404, error("unknown component " + name + "; this stack has "
                        + String.join(", ", stack.names())));
                return;
            }
            if (!method.equals("POST")) {
                respond(exchange, 405, error("use POST"));
                return;
            }
            act(exchange, name, segments.get(1));
        } catch (RuntimeException e) {
            log.error("control request {} failed", exchange.getRequestURI(), e);
            respond(exchange, 500, error(e.getMessage()));
        }
    }

    /** @param component a component's id (every replica of it) or one replica's name */
    private void act(HttpExchange exchange, String component, String action) throws IOException {
        long began = System.nanoTime();
        log.info("Control: {} {}", action, component);
        Optional<StackAction> known = StackAction.parse(action);
        if (known.isEmpty()) {
            respond(exchange, 400, error("unknown action " + action + "; use stop, start, restart, kill, freeze or thaw"));
            return;
        }
        try {
            stack.act(component, known.get());
        } catch (UnsupportedOperationException e) {
            respond(exchange, 400, error(e.getMessage()));
            return;
        } catch (ChildFailedException e) {
            respond(exchange, 500, error(e.getMessage()));
            return;
        }
        long took = Duration.ofNanos(System.nanoTime() - began).toMillis();
        respond(exchange, 200, new ActionView(component, action, stack.status(component).state().name(), took));
    }

    /** The answer of {@code GET /control/status}; the runbooks read it with jq. */
    record StackView(List<StatusView> components, long launcherResidentBytes, long launcherProportionalBytes,
                     long totalResidentBytes, long totalProportionalBytes) {
    }

    record StatusView(String component, String state, Long pid, String url, long residentBytes, long proportionalBytes,
                      Long startupMillis, Integer exitCode, String of) {

        StatusView(ComponentStatus status) {
            this(status.name(), status.state().name(), status.pid().isPresent() ? status.pid().getAsLong() : null,
                    status.url(), status.residentBytes(), status.proportionalBytes(),
                    status.startup().map(Duration::toMillis).orElse(null), status.exitCode().orElse(null),
                    status.component().id());
        }
    }

    record ActionView(String component, String action, String state, long tookMillis) {
    }

    private StackView stackView() {
        MemoryUsage memory = stack.memory();
        return new StackView(stack.status().stream().map(StatusView::new).toList(), memory.launcherResident(),
                memory.launcherProportional(), memory.totalResident(), memory.totalProportional());
    }

    private static Map<String, String> error(String message) {
        return Map.of("error", String.valueOf(message));
    }

    private static void respond(HttpExchange exchange, int status, Object answer) throws IOException {
        byte[] body = JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}

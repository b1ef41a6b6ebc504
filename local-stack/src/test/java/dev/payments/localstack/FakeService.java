package dev.payments.localstack;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Stands in for a service's runnable jar: answers {@code /args} with the arguments it was started with, on
 * {@code --server.port} (a service) or {@code --port} (the PG simulator), and health with UP where the real one does:
 * {@code /actuator/health} on {@code --management.server.port}, the simulator's {@code /admin/health} on
 * {@code --admin-port}.
 * Kept to one class without inner classes so a test can pack it into a jar on its own.
 */
public final class FakeService {

    private FakeService() {
    }

    public static void main(String[] args) throws IOException {
        int port = 0;
        int adminPort = -1;
        int managementPort = -1;
        for (String arg : args) {
            if (arg.startsWith("--management.server.port=")) {
                managementPort = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
            }
            if (arg.startsWith("--server.port=") || arg.startsWith("--port=")) {
                port = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
            }
            if (arg.startsWith("--admin-port=")) {
                adminPort = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
            }
        }
        if (adminPort >= 0) {
            HttpServer admin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), adminPort), 0);
            admin.createContext("/admin/health", exchange -> respond(exchange, "{\"status\":\"UP\"}"));
            admin.start();
        }
        if (managementPort >= 0) {
            HttpServer management = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), managementPort), 0);
            management.createContext("/actuator/health", exchange -> respond(exchange, "{\"status\":\"UP\"}"));
            management.start();
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/args", exchange -> respond(exchange, String.join("\n", args)));
        server.createContext("/", exchange -> respond(exchange, "fake"));
        server.start();
        System.out.println("fake service listening on " + port);
    }

    private static void respond(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}

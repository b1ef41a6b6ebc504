package dev.payments.testsupport.infra;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy that can stop forwarding without closing anything: {@link #freeze()} makes a client look like
 * a frozen VM or a host behind a silent network cut. Its sockets stay open, so neither side sees a reset or a FIN;
 * bytes simply stop arriving, in both directions, until {@link #thaw()}. Connections opened while frozen are
 * accepted and then hang like the others. Not for production: one thread per direction per connection.
 */
public final class TcpProxy implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);

    private final String upstreamHost;
    private final int upstreamPort;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile boolean frozen;
    private volatile boolean closed;

    private TcpProxy(String upstreamHost, int upstreamPort) throws IOException {
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy on a free loopback port forwarding to {@code upstreamHost:upstreamPort}. */
    public static TcpProxy to(String upstreamHost, int upstreamPort) {
        try {
            return new TcpProxy(upstreamHost, upstreamPort);
        } catch (IOException e) {
            throw new UncheckedIOException("could not open a proxy port", e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Stops forwarding in both directions; every connection stays open. */
    public void freeze() {
        frozen = true;
        log.info("TCP proxy {} -> {}:{} frozen", port(), upstreamHost, upstreamPort);
    }

    /** Forwards again, including what arrived while frozen. */
    public void thaw() {
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
        log.info("TCP proxy {} -> {}:{} forwarding again", port(), upstreamHost, upstreamPort);
    }

    @Override
    public void close() {
        closed = true;
        thaw();
        closeQuietly(server);
        sockets.forEach(TcpProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.warn("TCP proxy {} stopped accepting", port(), e);
                }
                return;
            }
            sockets.add(client);
            Thread connector = new Thread(() -> connect(client), "tcp-proxy-connect-" + port());
            connector.setDaemon(true);
            connector.start();
        }
    }

    private void connect(Socket client) {
        try {
            awaitThawed();
            Socket upstream = new Socket(upstreamHost, upstreamPort);
            sockets.add(upstream);
            pump(client, upstream, "up");
            pump(upstream, client, "down");
        } catch (IOException e) {
            closeQuietly(client);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(client);
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    // What was read while frozen is held back, not dropped: a thaw delivers it late, like a network
                    // that recovers.
                    awaitThawed();
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed: close the other as a real connection would
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-" + port() + "-" + direction);
        thread.setDaemon(true);
        thread.start();
    }

    private void awaitThawed() throws InterruptedException {
        synchronized (gate) {
            while (frozen && !closed) {
                gate.wait();
            }
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // already closed
        }
    }
}

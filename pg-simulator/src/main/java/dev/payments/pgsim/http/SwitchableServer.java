package dev.payments.pgsim.http;

import dev.payments.pgsim.fault.ListenerSwitch;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A listener that can stop accepting, so "connection refused" is the real thing: the port is
 * unbound and its open connections are closed, as when the PG's process is down. It re-binds the
 * same port when the fault is cleared.
 */
public final class SwitchableServer implements ListenerSwitch, AutoCloseable {

    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);

    private final HttpServer server;
    private final BooleanSupplier refusing;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    /** Binding blocks, which Reactor forbids on event loops; one thread also serializes the switches. */
    private final ExecutorService switchThread = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "pgsim-listener-switch");
        thread.setDaemon(true);
        return thread;
    });
    private final Scheduler switchScheduler = Schedulers.fromExecutorService(switchThread);
    private DisposableServer bound;
    private int port;
    /** Set before the port is closed, so a connection accepted while it closes is closed too. */
    private volatile boolean down;

    public SwitchableServer(HttpServer server, int port, BooleanSupplier refusing) {
        // Every connection from the moment it is accepted, not from its first request (doOnConnection): one accepted
        // just before the fault whose request came after it would survive and be answered by a PG that was down.
        this.server = server.doOnChannelInit((observer, channel, remoteAddress) -> admit(channel));
        this.port = port;
        this.refusing = refusing;
    }

    private void admit(Channel channel) {
        connections.add(channel);
        // Either the closing below sees this channel in the group, or this sees the flag it set first.
        if (down) {
            channel.close();
        }
    }

    public synchronized void start() {
        bound = server.port(port).bindNow(BIND_TIMEOUT);
        port = bound.port();
    }

    public synchronized int port() {
        return port;
    }

    public synchronized boolean accepting() {
        return bound != null;
    }

    @Override
    public Mono<Void> sync() {
        return Mono.<Void>fromRunnable(this::syncNow).subscribeOn(switchScheduler);
    }

    private synchronized void syncNow() {
        boolean refuse = refusing.getAsBoolean();
        if (refuse && bound != null) {
            down = true;
            bound.disposeNow(BIND_TIMEOUT);
            bound = null;
            connections.close().syncUninterruptibly();
        } else if (!refuse && bound == null) {
            down = false;
            bound = server.port(port).bindNow(BIND_TIMEOUT);
        }
    }

    @Override
    public synchronized void close() {
        if (bound != null) {
            bound.disposeNow(BIND_TIMEOUT);
            bound = null;
        }
        connections.close().syncUninterruptibly();
        switchScheduler.dispose();
    }
}

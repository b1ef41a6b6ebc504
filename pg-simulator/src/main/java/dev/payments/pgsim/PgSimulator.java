package dev.payments.pgsim;

import dev.payments.pgsim.admin.AdminRouter;
import dev.payments.pgsim.api.GatewayRouter;
import dev.payments.pgsim.callback.CallbackSender;
import dev.payments.pgsim.callback.CallbackSettings;
import dev.payments.pgsim.fault.FaultControl;
import dev.payments.pgsim.fault.Faults;
import dev.payments.pgsim.http.SwitchableServer;
import dev.payments.pgsim.idempotency.IdempotencyStore;
import dev.payments.pgsim.ledger.BillingKeys;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.ledger.LedgerJournal;
import dev.payments.pgsim.ledger.LedgerView;
import dev.payments.pgsim.stats.Stats;
import dev.payments.pgsim.stats.StatsSnapshot;
import java.time.Clock;
import java.time.Duration;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * A running simulator: the gateway API on {@link #baseUrl()}, the admin API on
 * {@link #adminBaseUrl()}. Plain Reactor Netty, no Spring: it starts in well under a second and
 * keeps no thread per request, so thousands of slow or hanging requests are cheap.
 *
 * <pre>{@code
 * try (PgSimulator pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0))) {
 *     pg.faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(5000)));
 *     ... point the client at pg.baseUrl() ...
 * }
 * }</pre>
 */
public final class PgSimulator implements AutoCloseable {

    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    private final PgSimulatorConfig config;
    private final Stats stats = new Stats();
    private final LedgerJournal journal;
    private final Ledger ledger;
    private final IdempotencyStore idempotency = new IdempotencyStore();
    private final Faults faults;
    private final FaultControl faultControl;
    private final LoopResources loops;
    private final Scheduler timer;
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private final CallbackSender callbacks;
    private final SwitchableServer gateway;
    private final HttpServer adminServer;
    private DisposableServer admin;

    private PgSimulator(PgSimulatorConfig config) {
        this.config = config;
        Clock clock = Clock.tickMillis(Clock.systemUTC().getZone());
        this.journal = config.journal() == null ? null : LedgerJournal.open(config.journal());
        this.ledger = new Ledger(clock, journal);
        BillingKeys billingKeys = new BillingKeys(clock, journal);
        if (journal != null) {
            journal.replayInto(ledger, billingKeys);
        }
        this.faults = new Faults(config.seed());
        // Own event loops and timer, so a host application's Reactor usage and ours never starve each other.
        this.loops = LoopResources.create("pgsim", 1, Math.max(2, Runtime.getRuntime().availableProcessors()), true);
        this.timer = Schedulers.newParallel("pgsim-timer", 1, true);
        this.callbacks = new CallbackSender(new CallbackSettings(config.callbackSecret(), config.callbackMaxAttempts(),
                config.callbackInitialBackoff(), config.callbackTimeout()), loops, stats, clock);
        GatewayRouter gatewayRouter = new GatewayRouter(new GatewayRouter.Dependencies(ledger, idempotency, faults, stats,
                config.secretKey(), callbacks, config.callbackUrl(), timer, closed.asMono(), clock, billingKeys));
        this.gateway = new SwitchableServer(
                HttpServer.create().host(config.host()).runOn(loops).handle(gatewayRouter),
                config.port(), faults::refusingConnections);
        this.faultControl = new FaultControl(faults, gateway);
        this.adminServer = HttpServer.create().host(config.host()).port(config.adminPort()).runOn(loops)
                .handle(new AdminRouter(faultControl, ledger, idempotency, stats));
    }

    /** Binds both ports (blocking, typically a few milliseconds once Netty's classes are loaded). */
    public static PgSimulator start(PgSimulatorConfig config) {
        PgSimulator simulator = new PgSimulator(config);
        try {
            simulator.admin = simulator.adminServer.bindNow(Duration.ofSeconds(10));
            simulator.gateway.start();
        } catch (RuntimeException e) {
            simulator.close();
            throw e;
        }
        return simulator;
    }

    /** {@code http://<host>:<port>} of the gateway API. */
    public String baseUrl() {
        return "http://" + urlHost() + ":" + gateway.port();
    }

    /** {@code http://<host>:<adminPort>} of the admin API (a separate port, never refused). */
    public String adminBaseUrl() {
        return "http://" + urlHost() + ":" + admin.port();
    }

    public int port() {
        return gateway.port();
    }

    public int adminPort() {
        return admin.port();
    }

    public PgSimulatorConfig config() {
        return config;
    }

    public FaultControl faults() {
        return faultControl;
    }

    public LedgerView ledger() {
        return ledger;
    }

    public StatsSnapshot stats() {
        return stats.snapshot();
    }

    /** Forgets every payment, transaction and Idempotency-Key (faults and stats stay). */
    public void resetLedger() {
        ledger.reset();
        idempotency.reset();
    }

    /** Back to a fresh simulator: no faults, empty ledger, zero counters. */
    public void reset() {
        faultControl.reset();
        resetLedger();
        stats.reset();
    }

    /** Closes both ports and every open connection; safe to call twice. */
    @Override
    public synchronized void close() {
        closed.tryEmitEmpty();
        gateway.close();
        if (admin != null) {
            admin.disposeNow(SHUTDOWN_TIMEOUT);
            admin = null;
        }
        callbacks.close();
        timer.dispose();
        loops.disposeLater(Duration.ZERO, SHUTDOWN_TIMEOUT).block(SHUTDOWN_TIMEOUT);
        if (journal != null) {
            journal.close();
        }
    }

    private String urlHost() {
        return config.host().equals("0.0.0.0") ? "127.0.0.1" : config.host();
    }
}

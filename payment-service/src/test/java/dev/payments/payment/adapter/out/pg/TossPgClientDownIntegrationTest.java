package dev.payments.payment.adapter.out.pg;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.fault.ConnectionFault;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A suspect for a slow-opening breaker when the PG goes down: a client holding keep-alive connections to
 * a PG that goes down. The simulator's REFUSE unbinds the port and closes the open connections (docs/pg-simulator.md),
 * as a dead PG process does, and the JDK client then fails every confirm as a refused connection, pooled or new, at
 * once: nothing waits for the 15 s read timeout.
 */
class TossPgClientDownIntegrationTest {

    private static final int CONNECTIONS = 10;

    @Test
    void aPgThatGoesDownUnderPooledConnectionsRefusesEveryConfirmAtOnce() throws Exception {
        try (PgSimulator pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0))) {
            TossPgClient client = new TossPgClient(new PgClientProperties(URI.create(pg.baseUrl()), "test_sk_simulator",
                    Duration.ofSeconds(1), Duration.ofSeconds(15), Duration.ofSeconds(5), Duration.ofSeconds(5)),
                    new ObjectMapper().findAndRegisterModules());
            ExecutorService callers = Executors.newFixedThreadPool(CONNECTIONS);
            try {
                // Concurrent confirms leave that many keep-alive connections in the client's pool.
                pg.faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(
                        dev.payments.pgsim.fault.Latency.fixed(200)));
                assertThat(inParallel(callers, client)).allMatch(ConfirmEnd::approved);

                pg.faults().set(FaultSpec.none(Operation.ALL).withConnectionFault(ConnectionFault.refuse()));

                assertThat(inParallel(callers, client)).allSatisfy(end -> {
                    assertThat(end.failure()).isInstanceOf(PgConnectException.class);
                    assertThat(((PgCallException) end.failure()).mayHaveReachedPg()).isFalse();
                    // Far below the read timeout: a pooled connection the PG closed is not waited on.
                    assertThat(end.took()).isLessThan(Duration.ofSeconds(1));
                });
            } finally {
                callers.shutdownNow();
            }
        }
    }

    private record ConfirmEnd(boolean approved, RuntimeException failure, Duration took) {
    }

    private static List<ConfirmEnd> inParallel(ExecutorService callers, TossPgClient client) throws Exception {
        List<Future<ConfirmEnd>> ends = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            ends.add(callers.submit(() -> confirm(client)));
        }
        List<ConfirmEnd> done = new ArrayList<>();
        for (Future<ConfirmEnd> end : ends) {
            done.add(end.get(30, TimeUnit.SECONDS));
        }
        return done;
    }

    private static ConfirmEnd confirm(TossPgClient client) {
        String id = UUID.randomUUID().toString();
        long started = System.nanoTime();
        try {
            boolean approved = client.confirm("pk_" + id, "order-" + id, 1_000, id, Duration.ofSeconds(15))
                    instanceof TossPgClient.PgAnswer.Accepted;
            return new ConfirmEnd(approved, null, Duration.ofNanos(System.nanoTime() - started));
        } catch (RuntimeException e) {
            return new ConfirmEnd(false, e, Duration.ofNanos(System.nanoTime() - started));
        }
    }
}

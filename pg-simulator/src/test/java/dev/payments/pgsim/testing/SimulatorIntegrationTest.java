package dev.payments.pgsim.testing;

import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * One simulator per test class, reset before each test, reached over real HTTP through {@link SimClient}. A
 * subclass starts it in its own {@code @BeforeAll} with the configuration it needs.
 */
public abstract class SimulatorIntegrationTest {

    protected static PgSimulator simulator;
    protected static SimClient client;

    protected static void startSimulator(PgSimulatorConfig config) {
        simulator = PgSimulator.start(config);
        client = new SimClient(simulator);
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
            simulator = null;
        }
    }

    @BeforeEach
    void resetSimulator() {
        simulator.reset();
    }
}

package dev.payments.drills.observe;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SoakSamplerTest {

    @Test
    void theAdminClientAcceptsItsTimeouts() {
        // Nothing listens there: creating the client must still succeed (it only connects when asked).
        try (ConsumerLag kafka = new ConsumerLag(Map.of("bootstrap.servers", "127.0.0.1:1"))) {
            assertThat(kafka).isNotNull();
        }
    }

    @Test
    void heapInUseIsTheSurvivorsEdenAndOldGenerationOfJstat() {
        String serial = """
                 S0C    S1C    S0U    S1U      EC       EU        OC         OU       MC     MU    CCSC   CCSU   YGC     YGCT    FGC    FGCT     CGC    CGCT     GCT
                8704.0 8704.0  0.0   0.0   69952.0   1398.6   174784.0   61234.5  87296.0 85012.2 10752.0 9876.1     41    0.312   3      0.401     -          -    0.713
                """;

        assertThat(SoakSampler.JstatGc.heapUsedKb(serial).getAsDouble()).isCloseTo(1398.6 + 61234.5, within(0.01));
        assertThat(SoakSampler.JstatGc.heapUsedKb("Could not attach")).isEmpty();
    }
}

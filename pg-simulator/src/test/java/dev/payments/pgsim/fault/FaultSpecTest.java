package dev.payments.pgsim.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payments.pgsim.ledger.DeclineReason;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FaultSpecTest {

    @Test
    void rejectsRatesOutsideZeroToOne() {
        assertThatThrownBy(() -> FaultSpec.none(Operation.ALL).withErrorRate(1.5))
                .hasMessageContaining("errorRate must be between 0.0 and 1.0");
        assertThatThrownBy(() -> FaultSpec.none(Operation.ALL).withDropResponse(-0.1, DropMode.HANG))
                .hasMessageContaining("dropResponseRate");
    }

    @Test
    void refuseIsPortWideAndHasNoRate() {
        assertThatThrownBy(() -> FaultSpec.none(Operation.CONFIRM).withConnectionFault(ConnectionFault.refuse()))
                .hasMessageContaining("operation must be 'all'");
        assertThatThrownBy(() -> new ConnectionFault(ConnectionFault.Mode.REFUSE, 0.5)).hasMessageContaining("no rate");
        assertThat(FaultSpec.none(Operation.ALL).withConnectionFault(ConnectionFault.refuse()).refusesConnections()).isTrue();
    }

    @Test
    void declinesAndAsyncOnlyApplyToConfirm() {
        assertThatThrownBy(() -> FaultSpec.none(Operation.QUERY).withDecline(0.1, DeclineReason.REJECT_CARD_PAYMENT))
                .hasMessageContaining("declineRate only applies to confirm");
        assertThatThrownBy(() -> FaultSpec.none(Operation.CANCEL).withAsync(AsyncProcessing.fieldReport001()))
                .hasMessageContaining("async only applies to confirm");
    }

    @Test
    void onlyGatewayStyleServerErrors() {
        assertThat(FaultSpec.none(Operation.ALL).withErrorStatus(503).errorStatus()).isEqualTo(503);
        assertThatThrownBy(() -> FaultSpec.none(Operation.ALL).withErrorStatus(404)).hasMessageContaining("errorStatus");
    }

    @Test
    void fieldReport001IsSixtyPercentRequestSuccessAndSeventyPercentProcessingSuccess() {
        FaultSpec spec = FaultSpec.fieldReport001();

        assertThat(spec.operation()).isEqualTo(Operation.CONFIRM);
        assertThat(spec.errorRate()).isEqualTo(0.4);
        assertThat(spec.latency()).isEqualTo(Latency.uniform(100, 500));
        assertThat(spec.async().successRate()).isEqualTo(0.7);
        assertThat(spec.async().declines())
                .isEqualTo(Map.of(DeclineReason.EXCEED_MAX_CARD_LIMIT, 2, DeclineReason.INVALID_CARD_NUMBER, 1));
    }

    @Test
    void latencyStaysInItsBounds() {
        Random random = new Random(1);
        for (int i = 0; i < 1000; i++) {
            assertThat(Latency.uniform(100, 500).sample(random)).isBetween(Duration.ofMillis(100), Duration.ofMillis(500));
        }
        assertThat(Latency.fixed(250).sample(random)).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void latencyIsFixedOrUniformOrExplained() {
        assertThat(new Latency(null, 3000L, 5000L)).isEqualTo(Latency.uniform(3000, 5000));
        assertThat(new Latency(10L, null, null)).isEqualTo(Latency.fixed(10));
        assertThatThrownBy(() -> new Latency(null, 10L, null)).hasMessageContaining("latency needs");
        assertThatThrownBy(() -> Latency.uniform(500, 100)).hasMessageContaining("minMs must be <= latency.maxMs");
    }
}

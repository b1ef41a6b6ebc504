package dev.payments.pgsim.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payments.pgsim.fault.ConnectionFault;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.DeclineReason;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultRequestTest {

    @Test
    void readsTheDocumentedExample() {
        FaultSpec spec = single("{\"operation\":\"confirm\",\"latency\":{\"minMs\":100,\"maxMs\":500},\"errorRate\":0.2,"
                + "\"declineRate\":0.1,\"declineCode\":\"EXCEED_MAX_CARD_LIMIT\",\"dropResponseRate\":0.3,\"dropMode\":\"HANG\","
                + "\"hang\":false,\"connectionFault\":{\"mode\":\"RESET\",\"rate\":0.1},\"seed\":42}");

        assertThat(spec).isEqualTo(FaultSpec.none(Operation.CONFIRM)
                .withLatency(Latency.uniform(100, 500))
                .withErrorRate(0.2)
                .withDecline(0.1, DeclineReason.EXCEED_MAX_CARD_LIMIT)
                .withDropResponse(0.3, DropMode.HANG)
                .withConnectionFault(ConnectionFault.reset(0.1))
                .withSeed(42L));
    }

    @Test
    void aProfileFillsWhatIsOmittedAndFieldsOverrideIt() {
        FaultSpec spec = single("{\"profile\":\"001\",\"latency\":{\"fixedMs\":0},\"async\":{\"delay\":{\"fixedMs\":10}}}");

        assertThat(spec.errorRate()).isEqualTo(0.4);
        assertThat(spec.latency()).isEqualTo(Latency.fixed(0));
        assertThat(spec.async().successRate()).isEqualTo(0.7);
        assertThat(spec.async().delay()).isEqualTo(Latency.fixed(10));
    }

    @Test
    void acceptsAnArrayAndLowerCaseEnums() {
        List<FaultRequest> requests = AdminJson.faults(bytes(
                "[{\"operation\":\"QUERY\",\"hang\":true},{\"connectionFault\":{\"mode\":\"refuse\"}}]"));

        assertThat(requests).extracting(FaultRequest::toSpec).extracting(FaultSpec::operation)
                .containsExactly(Operation.QUERY, Operation.ALL);
    }

    @Test
    void explainsBadInputByField() {
        assertThatThrownBy(() -> single("{\"errorRat\":0.2}")).hasMessageContaining("unknown field 'errorRat'")
                .hasMessageContaining("errorRate");
        assertThatThrownBy(() -> single("{\"declineCode\":\"NOPE\"}")).hasMessageContaining("'declineCode'")
                .hasMessageContaining("REJECT_CARD_PAYMENT");
        assertThatThrownBy(() -> single("{\"operation\":\"refund\"}")).hasMessageContaining("operation must be one of");
        assertThatThrownBy(() -> single("{\"latency\":{\"minMs\":5}}")).hasMessageContaining("latency needs");
        assertThatThrownBy(() -> single("{\"errorRate\":")).hasMessageContaining("malformed JSON");
        assertThatThrownBy(() -> single("{\"profile\":\"002\"}")).hasMessageContaining("profile must be '001'");
        assertThatThrownBy(() -> AdminJson.faults(bytes("42"))).hasMessageContaining("fault object or an array");
    }

    private static FaultSpec single(String json) {
        return AdminJson.faults(bytes(json)).get(0).toSpec();
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}

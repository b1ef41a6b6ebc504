package dev.payments.pgsim.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payments.pgsim.ledger.DeclineReason;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultsTest {

    @Test
    void anOperationSlotReplacesTheAllSlotWithoutMerging() {
        Faults faults = new Faults(1L);
        faults.set(List.of(
                FaultSpec.none(Operation.ALL).withLatency(Latency.fixed(100)),
                FaultSpec.none(Operation.CONFIRM).withErrorRate(1.0)));

        RequestPlan confirm = faults.forOperation(Operation.CONFIRM).plan();
        RequestPlan query = faults.forOperation(Operation.QUERY).plan();

        assertThat(confirm.serverError()).hasValue(500);
        assertThat(confirm.latency()).isZero();
        assertThat(query.latency()).isEqualTo(Duration.ofMillis(100));
        assertThat(query.serverError()).isEmpty();
    }

    @Test
    void replacingOrClearingAFaultReleasesItsHungRequests() {
        Faults faults = new Faults(1L);
        faults.set(List.of(FaultSpec.none(Operation.CONFIRM).withHang(true)));
        RequestPlan hung = faults.forOperation(Operation.CONFIRM).plan();
        faults.set(List.of(FaultSpec.none(Operation.QUERY).withHang(true)));
        assertThat(hung.released().toFuture()).isNotDone();

        faults.reset(Operation.CONFIRM);

        assertThat(hung.released().toFuture()).isDone();
        assertThat(faults.current()).extracting(FaultSpec::operation).containsExactly(Operation.QUERY);
    }

    @Test
    void theSameSeedReplaysTheSameDecisions() {
        FaultSpec spec = FaultSpec.none(Operation.CONFIRM)
                .withLatency(Latency.uniform(100, 500))
                .withErrorRate(0.3)
                .withDecline(0.2, DeclineReason.EXCEED_MAX_CARD_LIMIT)
                .withDropResponse(0.1, DropMode.HANG)
                .withSeed(42L);

        assertThat(decisions(spec)).isEqualTo(decisions(spec));
        assertThat(decisions(spec)).isNotEqualTo(decisions(spec.withSeed(43L)));
    }

    @Test
    void eachDecisionHasItsOwnStreamSoAddingLatencyKeepsTheErrors() {
        FaultSpec errorsOnly = FaultSpec.none(Operation.CONFIRM).withErrorRate(0.5).withSeed(7L);
        FaultSpec errorsAndLatency = errorsOnly.withLatency(Latency.uniform(1, 1000));

        assertThat(errors(errorsAndLatency)).isEqualTo(errors(errorsOnly));
    }

    @Test
    void withoutAnySeedEachFaultGetsARandomOneThatIsReported() {
        Faults faults = new Faults(null);
        faults.set(List.of(FaultSpec.none(Operation.ALL).withErrorRate(0.5)));

        assertThat(faults.current()).singleElement().satisfies(spec -> assertThat(spec.seed()).isNotNull());
    }

    @Test
    void refusingFollowsTheAllSlot() {
        Faults faults = new Faults(1L);
        assertThat(faults.refusingConnections()).isFalse();
        faults.set(List.of(FaultSpec.none(Operation.ALL).withConnectionFault(ConnectionFault.refuse())));
        assertThat(faults.refusingConnections()).isTrue();
        faults.reset();
        assertThat(faults.refusingConnections()).isFalse();
    }

    private static List<String> decisions(FaultSpec spec) {
        Faults faults = new Faults(null);
        faults.set(List.of(spec));
        return IntStream.range(0, 200)
                .mapToObj(i -> faults.forOperation(Operation.CONFIRM).plan())
                .map(p -> p.latency() + "/" + p.serverError() + "/" + p.decline() + "/" + p.dropAnswer())
                .toList();
    }

    private static List<Boolean> errors(FaultSpec spec) {
        Faults faults = new Faults(null);
        faults.set(List.of(spec));
        return IntStream.range(0, 200)
                .mapToObj(i -> faults.forOperation(Operation.CONFIRM).plan().serverError().isPresent())
                .toList();
    }
}

package dev.payments.pgsim.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payments.pgsim.http.Reply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

class IdempotencyStoreTest {

    private final IdempotencyStore store = new IdempotencyStore();
    private final AtomicInteger runs = new AtomicInteger();

    @Test
    void concurrentDuplicatesWaitForTheFirstAnswerAndRunTheWorkOnce() {
        Supplier<Mono<Reply>> slowWork = () -> Mono.delay(Duration.ofMillis(100))
                .map(t -> new Reply(200, ("run " + runs.incrementAndGet()).getBytes()));

        List<IdempotencyStore.Result> results = Flux.merge(IntStream.range(0, 20)
                        .mapToObj(i -> store.execute("key", "body", slowWork)).toList())
                .collectList().block(Duration.ofSeconds(5));

        assertThat(runs).hasValue(1);
        assertThat(results).filteredOn(IdempotencyStore.Result.Fresh.class::isInstance).hasSize(1);
        assertThat(results).filteredOn(IdempotencyStore.Result.Replayed.class::isInstance).hasSize(19)
                .allSatisfy(r -> assertThat(((IdempotencyStore.Result.Replayed) r).reply().body()).asString().isEqualTo("run 1"));
    }

    @Test
    void aDifferentBodyUnderTheSameKeyIsAConflict() {
        store.execute("key", "body-1", () -> Mono.just(new Reply(200, new byte[0]))).block();

        assertThat(store.execute("key", "body-2", () -> Mono.just(new Reply(200, new byte[0]))).block())
                .isInstanceOf(IdempotencyStore.Result.Conflict.class);
    }

    @Test
    void aFailedFirstAttemptReleasesTheKey() {
        IdempotencyStore.Result failed = store.execute("key", "body", () -> Mono.<Reply>error(new IllegalStateException("boom")))
                .onErrorResume(e -> Mono.empty()).block();
        IdempotencyStore.Result retried = store.execute("key", "body", () -> Mono.just(new Reply(200, new byte[0]))).block();

        assertThat(failed).isNull();
        assertThat(retried).isInstanceOf(IdempotencyStore.Result.Fresh.class);
    }
}

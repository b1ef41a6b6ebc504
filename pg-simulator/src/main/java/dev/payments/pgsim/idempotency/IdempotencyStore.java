package dev.payments.pgsim.idempotency;

import dev.payments.pgsim.http.Reply;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Keeps the first answer per Idempotency-Key. The first request with a key runs the work; a
 * duplicate that arrives meanwhile waits for that answer instead of running it again, so
 * concurrent duplicates reach the books at most once. If the work fails with an exception the
 * key is released and a waiting duplicate runs the work itself.
 */
public final class IdempotencyStore {

    /** What happened to a request carrying a key. */
    public sealed interface Result {

        record Fresh(Reply reply) implements Result {
        }

        record Replayed(Reply reply) implements Result {
        }

        /** The key was used with a different request body. */
        record Conflict() implements Result {
        }
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    public Mono<Result> execute(String key, String fingerprint, Supplier<Mono<Reply>> work) {
        return Mono.defer(() -> {
            Entry mine = new Entry(fingerprint);
            Entry existing = entries.putIfAbsent(key, mine);
            if (existing == null) {
                return work.get()
                        .doOnNext(mine::answer)
                        .doOnError(error -> release(key, mine))
                        .doOnCancel(() -> release(key, mine))
                        .map(Result.Fresh::new);
            }
            if (!existing.fingerprint.equals(fingerprint)) {
                return Mono.just(new Result.Conflict());
            }
            return existing.answer.asMono()
                    .<Result>map(Result.Replayed::new)
                    .switchIfEmpty(Mono.defer(() -> execute(key, fingerprint, work)));
        });
    }

    /** Forgets every key (ledger reset for tests). */
    public void reset() {
        entries.clear();
    }

    private void release(String key, Entry entry) {
        entries.remove(key, entry);
        entry.answer.tryEmitEmpty();
    }

    private static final class Entry {
        private final String fingerprint;
        /** A value: the stored answer. Empty: released, nothing stored. */
        private final Sinks.One<Reply> answer = Sinks.one();

        private Entry(String fingerprint) {
            this.fingerprint = fingerprint;
        }

        void answer(Reply reply) {
            answer.tryEmitValue(reply);
        }
    }
}

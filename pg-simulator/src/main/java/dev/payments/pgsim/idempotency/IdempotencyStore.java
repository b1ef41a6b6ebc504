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

        /** The first request with this key is still being processed, and the caller asked not to wait for it. */
        record InProgress() implements Result {
        }
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    public Mono<Result> execute(String key, String fingerprint, Supplier<Mono<Reply>> work) {
        return execute(key, fingerprint, work, true);
    }

    /**
     * @param waitForFirst false: a duplicate that arrives while the first request is still being processed is told
     *                     so ({@link Result.InProgress}) instead of waiting for its answer
     */
    public Mono<Result> execute(String key, String fingerprint, Supplier<Mono<Reply>> work, boolean waitForFirst) {
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
            if (!waitForFirst && !existing.answered()) {
                return Mono.just(new Result.InProgress());
            }
            return existing.answer.asMono()
                    .<Result>map(Result.Replayed::new)
                    .switchIfEmpty(Mono.defer(() -> execute(key, fingerprint, work, waitForFirst)));
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
        private volatile boolean answered;

        private Entry(String fingerprint) {
            this.fingerprint = fingerprint;
        }

        void answer(Reply reply) {
            answered = true;
            answer.tryEmitValue(reply);
        }

        boolean answered() {
            return answered;
        }
    }
}

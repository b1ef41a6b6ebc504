package dev.payments.pgsim.api;

import java.time.Duration;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/** Latency without blocking: a timer fires and the work continues; no thread waits. */
final class Delays {

    private final Scheduler timer;

    Delays(Scheduler timer) {
        this.timer = timer;
    }

    <T> Mono<T> after(Duration latency, Supplier<T> work) {
        if (latency.isZero()) {
            return Mono.fromSupplier(work);
        }
        return Mono.delay(latency, timer).map(tick -> work.get());
    }

    Mono<Long> timer(Duration delay) {
        return Mono.delay(delay, timer);
    }
}

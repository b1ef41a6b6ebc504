package dev.payments.support.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtDecoder;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Fetches the issuer's metadata and keys before the service reports ready, so that no request after a start waits
 * for them: Spring Boot's decoder fetches both on the first token it sees, and on a cold JVM that put the first
 * round of approvals above twice the warm p99 (docs/measurements.md, "Where the first window's p99 comes from"). The
 * fetch starts once every bean exists, beside the web server's and the listeners' start, and the runner waits for
 * it: runners run before readiness, so a probe sees the service ready only once it has ended.
 * <p>
 * It decodes a token signed by no one: the decoder fetches what it needs, checks the signature and refuses it. A
 * token is never accepted here, so nothing is cached. Bounded: an issuer that does not answer delays readiness by at
 * most {@link #WAIT}; the decoder's own calls have timeouts (ApiSecurityAutoConfiguration), and the first real token
 * asks the issuer again.
 */
final class IssuerKeysWarmUp implements SmartInitializingSingleton, ApplicationRunner {

    /** Well under the start-up budget (ready in 3-4 s on two cores, docs/measurements.md). */
    static final Duration WAIT = Duration.ofSeconds(3);

    private static final Logger log = LoggerFactory.getLogger(IssuerKeysWarmUp.class);

    private static final String UNSIGNED = encode("{\"alg\":\"RS256\",\"typ\":\"JWT\"}") + "."
            + encode("{\"sub\":\"warm-up\"}") + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[256]);

    private final Supplier<JwtDecoder> decoder;
    /** How the decoder refused the unsigned token; empty if it accepted it (it must not). */
    private CompletableFuture<Optional<RuntimeException>> refusal;
    private long startedNanos;

    /** @param decoder the service's own (Spring Boot's), not the cache in front of it; null when there is none */
    IssuerKeysWarmUp(Supplier<JwtDecoder> decoder) {
        this.decoder = decoder;
    }

    @Override
    public void afterSingletonsInstantiated() {
        JwtDecoder jwt = decoder.get();
        if (jwt == null) {
            return;
        }
        startedNanos = System.nanoTime();
        CompletableFuture<Optional<RuntimeException>> result = new CompletableFuture<>();
        Thread fetch = new Thread(() -> {
            try {
                jwt.decode(UNSIGNED);
                result.complete(Optional.empty());
            } catch (RuntimeException refused) {
                result.complete(Optional.of(refused));
            } catch (Throwable failed) {
                result.completeExceptionally(failed);
                throw failed;
            }
        }, "issuer-keys-warm-up");
        fetch.setDaemon(true);
        refusal = result;
        fetch.start();
    }

    @Override
    public void run(ApplicationArguments args) throws InterruptedException {
        if (refusal == null) {
            return;
        }
        Optional<RuntimeException> refused;
        try {
            refused = refusal.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("The issuer did not answer within {} ms; the first token asks it again", tookMs());
            return;
        } catch (ExecutionException e) {
            log.warn("The issuer's keys could not be fetched before ready: {}", e.getCause().toString());
            return;
        }
        if (refused.isEmpty()) {
            log.error("The decoder accepted a token signed by no one; check the resource server's configuration");
        } else if (refused.get() instanceof BadJwtException) {
            // The expected end: the keys were fetched and the signature is no one's.
            log.info("Issuer's keys fetched before ready in {} ms", tookMs());
        } else {
            log.warn("The issuer's keys could not be fetched before ready ({}); the first token asks again",
                    NestedExceptionUtils.getMostSpecificCause(refused.get()).toString());
        }
    }

    private long tookMs() {
        return Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}

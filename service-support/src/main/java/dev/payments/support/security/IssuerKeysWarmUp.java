package dev.payments.support.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.BadJwtException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Supplier;

/**
 * Fetches the issuer's metadata and keys before the service reports ready. Spring Boot's decoder does both on the
 * first token it sees, so after a start every client's first request waited for two calls to the issuer on a cold JVM
 * (docs/measurements.md, "Where the first window's p99 comes from"). The fetch starts once every bean exists, beside
 * the web server's and the listeners' start, and the runner waits for it: runners run before readiness, so a probe
 * sees the service ready only once it has ended.
 * <p>
 * It decodes a token signed by no one: the decoder fetches what it needs, checks the signature and refuses it. A
 * token is never accepted here, so nothing is cached. Bounded: an issuer that does not answer delays readiness by at
 * most {@link #WAIT}, and the first real token tries again, as it always did.
 */
final class IssuerKeysWarmUp implements SmartInitializingSingleton, ApplicationRunner {

    /** Well under the start-up budget (ready in 3-4 s on two cores, docs/measurements.md). */
    static final Duration WAIT = Duration.ofSeconds(3);

    private static final Logger log = LoggerFactory.getLogger(IssuerKeysWarmUp.class);

    private static final String UNSIGNED = encode("{\"alg\":\"RS256\",\"typ\":\"JWT\"}") + "."
            + encode("{\"sub\":\"warm-up\"}") + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[256]);

    private final Supplier<JwtDecoder> decoder;
    private volatile RuntimeException outcome;
    private Thread fetch;
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
        fetch = new Thread(() -> decodeUnsigned(jwt), "issuer-keys-warm-up");
        fetch.setDaemon(true);
        fetch.start();
    }

    @Override
    public void run(ApplicationArguments args) throws InterruptedException {
        if (fetch == null) {
            return;
        }
        fetch.join(WAIT.toMillis());
        long tookMs = Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
        RuntimeException outcome = this.outcome;
        if (fetch.isAlive()) {
            log.warn("The issuer did not answer within {} ms; the first token asks it again", tookMs);
        } else if (outcome instanceof BadJwtException) {
            log.info("Issuer's keys fetched before ready in {} ms", tookMs);
        } else {
            log.warn("The issuer's keys could not be fetched before ready ({}); the first token asks again",
                    outcome == null ? "a token signed by no one was accepted" : outcome.getClass().getSimpleName());
        }
    }

    private void decodeUnsigned(JwtDecoder jwt) {
        try {
            jwt.decode(UNSIGNED);
        } catch (RuntimeException refused) {
            // BadJwtException is the expected end: the keys were fetched and the signature is no one's. Anything
            // else (the issuer unreachable, its metadata unreadable) is met again by the first real token.
            outcome = refused;
        }
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}

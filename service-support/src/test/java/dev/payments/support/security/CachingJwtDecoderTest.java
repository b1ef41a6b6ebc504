package dev.payments.support.security;

import dev.payments.testsupport.infra.MovableClock;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CachingJwtDecoderTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration LIFETIME = Duration.ofMinutes(10);

    /** The wall clock the validators read, and the cache's own ticker: moved together, or apart (a clock step). */
    private final MovableClock wallClock = MovableClock.at(T0);
    private final AtomicLong tickerNanos = new AtomicLong();
    private final Issuer issuer = new Issuer();
    private final CachingJwtDecoder decoder = new CachingJwtDecoder(issuer, 100, wallClock, tickerNanos::get);

    @Test
    void theSameTokenTwiceIsVerifiedOnce() {
        String token = issuer.issue("a", T0, T0.plus(LIFETIME));

        Jwt first = decoder.decode(token);
        Jwt second = decoder.decode(token);

        assertThat(second).isSameAs(first);
        assertThat(second.getSubject()).isEqualTo("member-a");
        assertThat(issuer.verified).containsExactly(token);
        assertThat(decoder.cache().stats().hitCount()).isEqualTo(1);
        assertThat(decoder.cache().stats().missCount()).isEqualTo(1);
    }

    @Test
    void aTamperedTokenIsNeverAHitAndTheDelegateRefusesIt() {
        String token = issuer.issue("a", T0, T0.plus(LIFETIME));
        decoder.decode(token);
        String tampered = token.substring(0, token.length() - 1) + (token.endsWith("A") ? "B" : "A");

        assertThatThrownBy(() -> decoder.decode(tampered)).isInstanceOf(BadJwtException.class);

        assertThat(issuer.verified).containsExactly(token, tampered);
        assertThat(decoder.cache().stats().hitCount()).isZero();
    }

    @Test
    void aRefusedTokenIsNotRemembered() {
        String token = issuer.issue("a", T0, T0.plus(LIFETIME));
        issuer.outage = true;
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtException.class);
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtException.class);

        issuer.outage = false;
        assertThat(decoder.decode(token).getSubject()).isEqualTo("member-a");

        assertThat(issuer.verified).containsExactly(token, token, token);
        assertThat(decoder.cache().estimatedSize()).isEqualTo(1);
    }

    @Test
    void aCachedTokenIsRefusedOnceItExpiredBeyondTheClockSkew() {
        String token = issuer.issue("a", T0, T0.plus(LIFETIME));
        decoder.decode(token);

        // The wall clock moves, the cache's own ticker does not: the entry is still there, and the hit re-checks.
        wallClock.advance(LIFETIME.plusSeconds(30));
        assertThat(decoder.decode(token).getSubject()).as("within Spring's 60 s skew, as the delegate").isEqualTo("member-a");
        wallClock.advance(Duration.ofSeconds(31));
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtValidationException.class)
                .hasMessageContaining("expired");

        assertThat(issuer.verified).as("refused from the cache, not verified again").containsExactly(token);
        assertThat(decoder.cache().getIfPresent(token)).as("and dropped").isNull();
    }

    @Test
    void aCachedTokenIsRefusedWhenTheClockIsSetBackBeforeItsNotBefore() {
        String token = issuer.issue("a", T0, T0.plus(LIFETIME));
        decoder.decode(token);

        wallClock.advance(Duration.ofSeconds(-61));

        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtValidationException.class);
        assertThat(issuer.verified).containsExactly(token);
    }

    @Test
    void anEntryNeverOutlivesItsToken() {
        String token = issuer.issue("a", T0, T0.plus(LIFETIME));
        decoder.decode(token);

        move(LIFETIME.minusSeconds(1));
        decoder.decode(token);
        assertThat(issuer.verified).hasSize(1);

        move(Duration.ofSeconds(1));
        // Gone from the cache at exp: the delegate decides, here with its skew still accepting it.
        decoder.decode(token);
        assertThat(issuer.verified).hasSize(2);
        assertThat(decoder.cache().getIfPresent(token)).as("past exp it is not kept again").isNull();
    }

    @Test
    void theCacheHoldsNoMoreThanItsBound() {
        CachingJwtDecoder small = new CachingJwtDecoder(issuer, 3, wallClock, tickerNanos::get);
        for (int i = 0; i < 50; i++) {
            small.decode(issuer.issue("m" + i, T0, T0.plus(LIFETIME)));
        }
        small.cache().cleanUp();

        assertThat(small.cache().estimatedSize()).isLessThanOrEqualTo(3);
    }

    private void move(Duration by) {
        wallClock.advance(by);
        tickerNanos.addAndGet(by.toNanos());
    }

    /** Stands in for Spring Boot's decoder: knows the tokens it issued, refuses any other string. */
    private static final class Issuer implements JwtDecoder {

        private final Map<String, Jwt> issued = new HashMap<>();
        final List<String> verified = new ArrayList<>();
        boolean outage;

        String issue(String member, Instant notBefore, Instant expiresAt) {
            String token = "header." + member + "." + "signature" + issued.size();
            issued.put(token, Jwt.withTokenValue(token).header("alg", "RS256").subject("member-" + member)
                    .issuedAt(notBefore).notBefore(notBefore).expiresAt(expiresAt).build());
            return token;
        }

        @Override
        public Jwt decode(String token) {
            verified.add(token);
            if (outage) {
                throw new JwtException("The issuer's keys are out of reach");
            }
            Jwt jwt = issued.get(token);
            if (jwt == null) {
                throw new BadJwtException("Signature does not match");
            }
            return jwt;
        }
    }
}

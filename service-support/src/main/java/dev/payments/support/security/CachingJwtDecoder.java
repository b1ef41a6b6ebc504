package dev.payments.support.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import java.time.Clock;
import java.time.Duration;

/**
 * Verifies each bearer token once, not on every request: a client reuses its token until it expires, and the RSA
 * signature check with the parsing of the token was ~13 % of a request thread's samples (docs/measurements.md).
 * <p>
 * The key is the whole token as sent, signature included, so a token changed in any character is another key and
 * goes to the delegate, which refuses it. Only what the delegate accepted is kept (it throws otherwise), and never
 * past the token's {@code exp}. Expiry and not-before are checked again on every hit, with the same clock skew as
 * the delegate's validators (Spring's 60 s), so a hit can never accept what a verification would refuse on time.
 */
final class CachingJwtDecoder implements JwtDecoder {

    private final JwtDecoder delegate;
    private final Clock clock;
    private final JwtTimestampValidator time;
    private final Cache<String, Jwt> verified;

    CachingJwtDecoder(JwtDecoder delegate, long maximumSize, Clock clock) {
        this(delegate, maximumSize, clock, Ticker.systemTicker());
    }

    CachingJwtDecoder(JwtDecoder delegate, long maximumSize, Clock clock, Ticker ticker) {
        this.delegate = delegate;
        this.clock = clock;
        this.time = new JwtTimestampValidator();
        this.time.setClock(clock);
        this.verified = Caffeine.newBuilder()
                .maximumSize(maximumSize)
                .expireAfter(Expiry.<String, Jwt>writing((token, jwt) -> untilExpiry(jwt)))
                .ticker(ticker)
                .recordStats()
                .build();
    }

    @Override
    public Jwt decode(String token) {
        Jwt cached = verified.getIfPresent(token);
        if (cached != null) {
            OAuth2TokenValidatorResult onTime = time.validate(cached);
            if (!onTime.hasErrors()) {
                return cached;
            }
            verified.invalidate(token);
            OAuth2Error first = onTime.getErrors().iterator().next();
            throw new JwtValidationException("An error occurred while attempting to decode the Jwt: "
                    + first.getDescription(), onTime.getErrors());
        }
        Jwt jwt = delegate.decode(token);
        // A token without exp would have no end in the cache; the issuers here always set one.
        if (jwt.getExpiresAt() != null && jwt.getExpiresAt().isAfter(clock.instant())) {
            verified.put(token, jwt);
        }
        return jwt;
    }

    /** For the cache's metrics (hits, misses, size, evictions). */
    Cache<String, Jwt> cache() {
        return verified;
    }

    private Duration untilExpiry(Jwt jwt) {
        if (jwt.getExpiresAt() == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(clock.instant(), jwt.getExpiresAt());
        return left.isNegative() ? Duration.ZERO : left;
    }
}

package dev.payments.support.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The cache of verified bearer tokens in front of every service's JWT decoder (docs/security.md, "Verified tokens
 * are cached until they expire").
 *
 * @param enabled     off: every request verifies its token's signature and parses it again (what the cache saves: docs/measurements.md)
 * @param maximumSize how many verified tokens one instance keeps (least recently used go first); a token is about
 *                    one member signed in for up to 30 minutes, so 10,000 is more members than one instance serves
 *                    in a token's lifetime, and a full cache is a few tens of MB of heap (docs/security.md)
 */
@ConfigurationProperties("payments.security.jwt-cache")
public record JwtCacheProperties(@DefaultValue("true") boolean enabled, @DefaultValue("10000") long maximumSize) {

    public JwtCacheProperties {
        if (maximumSize <= 0) {
            throw new IllegalArgumentException("payments.security.jwt-cache.maximum-size must be positive");
        }
    }
}

package dev.payments.testsupport.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;

/**
 * Signs access tokens shaped like the issuer's ({@code sub}, {@code aud}, {@code scope}, {@code iss}, {@code exp}),
 * for tests: valid ones, and the ones a resource server must refuse (expired, another issuer or audience, another key).
 */
public final class JwtMinter {

    public static final String AUDIENCE = "payments-api";

    private final String issuer;
    private final RSAKey key;

    public JwtMinter(String issuer, RSAKey key) {
        this.issuer = issuer;
        this.key = key;
    }

    /** The signing key of a running issuer (its JWK set file, private key included). */
    public static JwtMinter fromJwkSet(Path file, String issuer) {
        try {
            return new JwtMinter(issuer, JWKSet.load(file.toFile()).getKeys().get(0).toRSAKey());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the JWK set " + file, e);
        } catch (ParseException e) {
            throw new IllegalStateException("Not a JWK set: " + file, e);
        }
    }

    public static RSAKey newKey(String keyId) {
        try {
            return new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048).keyID(keyId).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    public String issuer() {
        return issuer;
    }

    RSAKey key() {
        return key;
    }

    public Token token(String subject) {
        return new Token(subject);
    }

    /** One token to sign; by default valid for ten minutes, for the payments API, signed with the issuer's key. */
    public final class Token {

        private String subject;
        private final List<String> scopes = new ArrayList<>();
        private String audience = AUDIENCE;
        private String tokenIssuer = issuer;
        private Instant expiresAt = Instant.now().plus(Duration.ofMinutes(10));
        private RSAKey signingKey = key;

        private Token(String subject) {
            this.subject = subject;
        }

        public Token scopes(String... names) {
            scopes.addAll(List.of(names));
            return this;
        }

        public Token audience(String other) {
            this.audience = other;
            return this;
        }

        public Token issuer(String other) {
            this.tokenIssuer = other;
            return this;
        }

        public Token expiresAt(Instant at) {
            this.expiresAt = at;
            return this;
        }

        /** Another key under the issuer's key id: the signature cannot be verified with the published key. */
        public Token forgedSignature() {
            this.signingKey = newKey(key.getKeyID());
            return this;
        }

        public Token subject(String other) {
            this.subject = other;
            return this;
        }

        public String sign() {
            JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                    .issuer(tokenIssuer)
                    .audience(audience)
                    .claim("scope", List.copyOf(scopes))
                    .issueTime(Date.from(expiresAt.minus(Duration.ofMinutes(10))))
                    .notBeforeTime(Date.from(expiresAt.minus(Duration.ofMinutes(10))))
                    .expirationTime(Date.from(expiresAt))
                    .jwtID(UUID.randomUUID().toString());
            if (subject != null) {
                claims.subject(subject);
            }
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signingKey.getKeyID()).build(),
                    claims.build());
            try {
                jwt.sign(new RSASSASigner(signingKey));
            } catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
            return jwt.serialize();
        }
    }
}

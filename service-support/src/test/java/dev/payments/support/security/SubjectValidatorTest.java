package dev.payments.support.security;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.Jwt;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class SubjectValidatorTest {

    private final SubjectValidator validator = new SubjectValidator();

    @Test
    void aMemberIdOfUpToSixtyFourVisibleCharactersIsTheCaller() {
        assertThat(validator.validate(token("member-1")).hasErrors()).isFalse();
        assertThat(validator.validate(token("m".repeat(64))).hasErrors()).isFalse();
    }

    @Test
    void noSubjectALongerOneOrOneThatCouldForgeALogLineIsRefused() {
        assertThat(validator.validate(token(null)).hasErrors()).isTrue();
        assertThat(validator.validate(token(" ")).hasErrors()).isTrue();
        assertThat(validator.validate(token("m".repeat(65))).hasErrors()).isTrue();
        assertThat(validator.validate(token("member-1\r\nINFO forged")).hasErrors()).isTrue();
        assertThat(validator.validate(token("member 1")).hasErrors()).isTrue();
    }

    private static Jwt token(String subject) {
        Jwt.Builder builder = Jwt.withTokenValue("t").header("alg", "RS256").issuedAt(Instant.now())
                .expiresAt(Instant.now().plusSeconds(60)).claim("scope", "member");
        if (subject != null) {
            builder.subject(subject);
        }
        return builder.build();
    }
}

package dev.payments.support.security;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * The subject becomes a member id in every service's tables ({@code varchar(64)}) and in log lines: a token without
 * one, with a longer one, or with control characters (CR/LF forging a log line) is refused like a bad signature.
 */
final class SubjectValidator implements OAuth2TokenValidator<Jwt> {

    static final int MAX_LENGTH = 64;

    @Override
    public OAuth2TokenValidatorResult validate(Jwt token) {
        String subject = token.getSubject();
        if (subject == null || subject.isBlank() || subject.length() > MAX_LENGTH
                || subject.chars().anyMatch(c -> Character.isISOControl(c) || Character.isWhitespace(c))) {
            return OAuth2TokenValidatorResult.failure(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN,
                    "The token's subject must be 1 to " + MAX_LENGTH + " visible characters", null));
        }
        return OAuth2TokenValidatorResult.success();
    }
}

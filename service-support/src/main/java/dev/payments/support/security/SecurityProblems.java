package dev.payments.support.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.web.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.access.BearerTokenAccessDeniedHandler;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;

import java.io.IOException;

/**
 * Refusals of the security chain as problem+json with a stable code, keeping the RFC 6750 {@code WWW-Authenticate}
 * header Spring Security writes: 401 {@code UNAUTHENTICATED} (no token), 401 {@code INVALID_TOKEN} (bad signature,
 * expired, another issuer or audience, no usable subject), 403 {@code INSUFFICIENT_SCOPE}, and 503
 * {@code IDENTITY_PROVIDER_UNAVAILABLE} when the issuer's keys cannot be fetched (our outage, not the caller's fault).
 */
public final class SecurityProblems implements AuthenticationEntryPoint, AccessDeniedHandler, AuthenticationFailureHandler {

    static final String UNAUTHENTICATED = "UNAUTHENTICATED";
    static final String INVALID_TOKEN = "INVALID_TOKEN";
    public static final String INSUFFICIENT_SCOPE = "INSUFFICIENT_SCOPE";
    static final String IDENTITY_PROVIDER_UNAVAILABLE = "IDENTITY_PROVIDER_UNAVAILABLE";

    private static final Logger log = LoggerFactory.getLogger(SecurityProblems.class);

    private final BearerTokenAuthenticationEntryPoint bearerChallenge = new BearerTokenAuthenticationEntryPoint();
    private final BearerTokenAccessDeniedHandler bearerDenial = new BearerTokenAccessDeniedHandler();
    private final ObjectMapper json;

    public SecurityProblems(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException refusal)
            throws IOException {
        bearerChallenge.commence(request, response, refusal);
        if (refusal instanceof OAuth2AuthenticationException invalid) {
            String description = invalid.getError().getDescription();
            write(response, Problems.problem(HttpStatus.UNAUTHORIZED, INVALID_TOKEN,
                    "The bearer token was refused" + (description == null ? "" : ": " + description)));
        } else {
            write(response, Problems.problem(HttpStatus.UNAUTHORIZED, UNAUTHENTICATED,
                    "This endpoint needs a bearer token (Authorization: Bearer ...)"));
        }
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        bearerDenial.handle(request, response, denied);
        write(response, Problems.problem(HttpStatus.FORBIDDEN, INSUFFICIENT_SCOPE,
                "The token does not carry the scope this endpoint needs (docs/security.md)"));
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
                                        AuthenticationException failure) throws IOException {
        if (failure instanceof AuthenticationServiceException) {
            log.error("Could not verify a bearer token: the issuer's keys are out of reach", failure);
            response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
            response.setHeader(HttpHeaders.RETRY_AFTER, "5");
            write(response, Problems.problem(HttpStatus.SERVICE_UNAVAILABLE, IDENTITY_PROVIDER_UNAVAILABLE,
                    "Tokens cannot be verified right now; nothing was done, try again shortly"));
            return;
        }
        commence(request, response, failure);
    }

    private void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
        Problems.write(response, json, problem);
    }
}

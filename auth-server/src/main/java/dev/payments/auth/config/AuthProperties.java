package dev.payments.auth.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Who may get which token. Nothing here has a working default outside the {@code local} profile: the signing key, the
 * service clients' secrets and the users are given by configuration (application-local.yml holds the local ones).
 *
 * @param audience       the {@code aud} of every access token; the resource servers accept only this one
 * @param accessTokenTtl how long an access token is valid
 * @param signingKey     where the JWK set that signs every token lives
 * @param cli            the public client a person uses (authorization code + PKCE)
 * @param console        the operator console, a confidential web client (authorization code); absent: not registered
 * @param services       confidential clients (client credentials): client id -> secret and scopes
 * @param roles          role -> the scopes a user of that role may be granted
 * @param users          username -> password and role
 * @param selfSignUp     local profile only: any username matching the pattern signs in with the shared password
 */
@Validated
@ConfigurationProperties("auth")
public record AuthProperties(@NotBlank String audience,
                             @DefaultValue("30m") Duration accessTokenTtl,
                             @Valid @NotNull SigningKey signingKey,
                             @Valid @NotNull Cli cli,
                             @Valid Console console,
                             @Valid @DefaultValue Map<String, ServiceClient> services,
                             @NotEmpty Map<String, List<String>> roles,
                             @Valid @DefaultValue Map<String, User> users,
                             @Valid SelfSignUp selfSignUp) {

    /**
     * @param location          a JWK set file (private keys included)
     * @param generateIfMissing create an RSA key there on first start (local profile): tokens stay valid across restarts
     */
    public record SigningKey(@NotNull Path location, @DefaultValue("false") boolean generateIfMissing) {
    }

    /** @param redirectUri a loopback URI (RFC 8252: any port is accepted); the script reads the code off the redirect */
    public record Cli(@NotBlank String clientId, @NotBlank String redirectUri) {
    }

    /**
     * The operator console signs people in with the authorization code grant and holds their tokens on its server.
     * It asks for every scope it can use; it is granted those the user's role carries (RoleScopes#narrow), so a
     * read-only operator signs in with read scopes and a member with none.
     *
     * @param secret      an encoded password ({@code {noop}} only in the local profile)
     * @param redirectUri the console's {@code /login/oauth2/code/<registration>}; on 127.0.0.1 any port is accepted
     */
    public record Console(@NotBlank String clientId, @NotBlank String secret, @NotBlank String redirectUri) {
    }

    /** @param secret an encoded password ({@code {bcrypt}...}; {@code {noop}} only in the local profile) */
    public record ServiceClient(@NotBlank String secret, @NotEmpty List<String> scopes) {
    }

    public record User(@NotBlank String password, @NotBlank String role) {
    }

    public record SelfSignUp(@NotBlank String pattern, @NotBlank String password, @NotBlank String role) {
    }
}

package dev.payments.auth.config;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import dev.payments.auth.grants.SerializedAuthorizations;
import dev.payments.auth.keys.SigningKeys;
import dev.payments.auth.users.Directory;
import dev.payments.auth.users.NarrowedScopeRequests;
import dev.payments.auth.users.RoleScopes;
import org.springframework.boot.actuate.autoconfigure.security.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationValidator;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.config.annotation.web.configurers.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Spring Authorization Server with the OpenID Connect endpoints: discovery, JWKS, authorize (authorization code with
 * PKCE for people), token (also client credentials for services). Every access token is a JWT whose {@code sub} is
 * the user (or the service's client id), whose {@code aud} is the payments API and whose {@code scope} is what the
 * role allows.
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerConfiguration {

    /** In memory, as before, but one caller at a time (SerializedAuthorizations says why). */
    @Bean
    OAuth2AuthorizationService authorizationService() {
        return new SerializedAuthorizations(new InMemoryOAuth2AuthorizationService());
    }

    @Bean
    @Order(1)
    SecurityFilterChain authorizationServerEndpoints(HttpSecurity http, RoleScopes roleScopes, AuthProperties properties)
            throws Exception {
        OAuth2AuthorizationServerConfigurer authorizationServer = OAuth2AuthorizationServerConfigurer.authorizationServer();
        Set<String> narrowingClients = properties.console() == null ? Set.of() : Set.of(properties.console().clientId());
        http.securityMatcher(authorizationServer.getEndpointsMatcher())
                .with(authorizationServer, server -> server
                        .oidc(Customizer.withDefaults())
                        .authorizationEndpoint(endpoint -> endpoint
                                .authorizationRequestConverter(new NarrowedScopeRequests(roleScopes, narrowingClients))
                                .authenticationProviders(providers -> providers
                                .forEach(provider -> {
                                    if (provider instanceof OAuth2AuthorizationCodeRequestAuthenticationProvider codeRequests) {
                                        codeRequests.setAuthenticationValidator(
                                                new OAuth2AuthorizationCodeRequestAuthenticationValidator().andThen(roleScopes));
                                    }
                                }))))
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                // A browser and a script alike are sent to the sign-in page, whatever they accept.
                .exceptionHandling(exceptions -> exceptions.authenticationEntryPoint(new LoginUrlAuthenticationEntryPoint("/login")));
        return http.build();
    }

    /** The sign-in form (with CSRF protection) and the health probe; nothing else is served. */
    @Bean
    @Order(2)
    SecurityFilterChain signIn(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers(EndpointRequest.to("health", "info")).permitAll()
                        .anyRequest().authenticated())
                .formLogin(Customizer.withDefaults());
        return http.build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    UserDetailsService users(AuthProperties properties) {
        return new Directory(properties.users(), properties.selfSignUp());
    }

    @Bean
    RoleScopes roleScopes(AuthProperties properties) {
        return new RoleScopes(properties.roles());
    }

    @Bean
    JWKSource<SecurityContext> jwkSource(AuthProperties properties) {
        JWKSet keys = SigningKeys.load(properties.signingKey().location(), properties.signingKey().generateIfMissing());
        return new ImmutableJWKSet<>(keys);
    }

    @Bean
    RegisteredClientRepository clients(AuthProperties properties) {
        TokenSettings tokens = TokenSettings.builder().accessTokenTimeToLive(properties.accessTokenTtl())
                .refreshTokenTimeToLive(Duration.ofHours(8)).reuseRefreshTokens(false).build();
        List<RegisteredClient> clients = new ArrayList<>();
        Set<String> everyRoleScope = new LinkedHashSet<>(List.of(OidcScopes.OPENID));
        properties.roles().values().forEach(everyRoleScope::addAll);
        clients.add(RegisteredClient.withId(UUID.nameUUIDFromBytes(properties.cli().clientId().getBytes()).toString())
                .clientId(properties.cli().clientId())
                .clientAuthenticationMethod(ClientAuthenticationMethod.NONE)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
                .redirectUri(properties.cli().redirectUri())
                .scopes(scopes -> scopes.addAll(everyRoleScope))
                // A public client: PKCE instead of a secret; no consent screen for the project's own client.
                .clientSettings(ClientSettings.builder().requireProofKey(true).requireAuthorizationConsent(false).build())
                .tokenSettings(tokens)
                .build());
        AuthProperties.Console console = properties.console();
        if (console != null) {
            clients.add(RegisteredClient.withId(UUID.nameUUIDFromBytes(console.clientId().getBytes()).toString())
                    .clientId(console.clientId())
                    .clientSecret(console.secret())
                    .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                    .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                    .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
                    .redirectUri(console.redirectUri())
                    .scopes(scopes -> scopes.addAll(everyRoleScope))
                    // A confidential client that also proves its code (PKCE), as OAuth 2.1 asks of every client.
                    .clientSettings(ClientSettings.builder().requireProofKey(true).requireAuthorizationConsent(false).build())
                    .tokenSettings(tokens)
                    .build());
        }
        properties.services().forEach((clientId, service) -> clients.add(
                RegisteredClient.withId(UUID.nameUUIDFromBytes(clientId.getBytes()).toString())
                        .clientId(clientId)
                        .clientSecret(service.secret())
                        .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                        .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                        .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                        .scopes(scopes -> scopes.addAll(service.scopes()))
                        .tokenSettings(tokens)
                        .build()));
        return new InMemoryRegisteredClientRepository(clients);
    }

    /** The resource servers accept only tokens meant for the payments API (RFC 7519 {@code aud}). */
    @Bean
    OAuth2TokenCustomizer<JwtEncodingContext> audience(AuthProperties properties) {
        return context -> {
            if (OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
                context.getClaims().audience(List.of(properties.audience()));
            }
        };
    }
}

package dev.payments.console.config;

import org.springframework.boot.actuate.autoconfigure.security.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.oidc.web.logout.OidcClientInitiatedLogoutSuccessHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.DefaultOAuth2AuthorizationRequestResolver;
import org.springframework.security.oauth2.client.web.DefaultOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestRedirectFilter;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Every page needs a signed-in person; signing in is the authorization code grant at the issuer (with PKCE, which the
 * issuer requires of every client). The console keeps the person's tokens in their server-side session and never
 * hands them to the browser. Signing out ends the session here and at the issuer (OpenID Connect RP-initiated logout).
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    static final String REGISTRATION = "payments";

    @Bean
    SecurityFilterChain pages(HttpSecurity http, ClientRegistrationRepository registrations) throws Exception {
        DefaultOAuth2AuthorizationRequestResolver requests = new DefaultOAuth2AuthorizationRequestResolver(registrations,
                OAuth2AuthorizationRequestRedirectFilter.DEFAULT_AUTHORIZATION_REQUEST_BASE_URI);
        requests.setAuthorizationRequestCustomizer(OAuth2AuthorizationRequestCustomizers.withPkce());
        OidcClientInitiatedLogoutSuccessHandler issuerLogout = new OidcClientInitiatedLogoutSuccessHandler(registrations);
        issuerLogout.setPostLogoutRedirectUri("{baseUrl}/");
        http.authorizeHttpRequests(pages -> pages
                        .requestMatchers(EndpointRequest.to("health", "info")).permitAll()
                        .requestMatchers("/css/**", "/favicon.ico", "/error").permitAll()
                        .anyRequest().authenticated())
                .oauth2Login(login -> login.authorizationEndpoint(endpoint -> endpoint.authorizationRequestResolver(requests)))
                .logout(logout -> logout.logoutSuccessHandler(issuerLogout));
        return http.build();
    }

    /** Fetches a new access token with the refresh token when the old one is about to expire (30 min at auth-server). */
    @Bean
    OAuth2AuthorizedClientManager authorizedClients(ClientRegistrationRepository registrations,
                                                    OAuth2AuthorizedClientRepository authorizedClients) {
        DefaultOAuth2AuthorizedClientManager manager = new DefaultOAuth2AuthorizedClientManager(registrations, authorizedClients);
        manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder()
                .authorizationCode().refreshToken().build());
        return manager;
    }
}

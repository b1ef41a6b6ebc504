package dev.payments.support.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.web.Problems;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.security.servlet.EndpointRequest;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.security.oauth2.resource.servlet.JwkSetUriJwtDecoderBuilderCustomizer;
import org.springframework.boot.autoconfigure.security.oauth2.resource.servlet.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.authentication.JwtGrantedAuthoritiesConverter;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.client.RestOperations;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Every service's HTTP API as an OAuth2 resource server, configured once here: a bearer JWT verified against the
 * issuer's JWKS, with issuer, audience, expiry and subject checked (Spring Boot's decoder from
 * {@code spring.security.oauth2.resourceserver.jwt.issuer-uri} and {@code .audiences}, plus {@link SubjectValidator});
 * the service's {@link ApiAccess} says which scope each endpoint needs. Stateless, no cookies, so no CSRF token; every
 * refusal is problem+json ({@link SecurityProblems}). The actuator endpoints stay open (probes, Prometheus). Issuer and
 * audience are required settings: the service does not start without them (support.settings.ServiceDefaults). A token
 * is verified once and then served from {@link CachingJwtDecoder} until it expires
 * ({@code payments.security.jwt-cache.*}, {@link JwtCacheProperties}).
 */
@AutoConfiguration(before = {SecurityAutoConfiguration.class, OAuth2ResourceServerAutoConfiguration.class},
        beforeName = "org.springframework.boot.autoconfigure.security.oauth2.client.servlet.OAuth2ClientWebSecurityAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(JwtCacheProperties.class)
public class ApiSecurityAutoConfiguration {

    /** The cache's name in its metrics: {@code cache_gets_total{cache="verified-tokens",result="hit"}}, ... */
    static final String VERIFIED_TOKENS = "verified-tokens";
    private static final Duration ISSUER_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration ISSUER_READ_TIMEOUT = Duration.ofSeconds(3);

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ObjectProvider<ApiAccess> access, ObjectMapper json,
                                    ObjectProvider<JwtDecoder> decoders, JwtCacheProperties jwtCache,
                                    ObjectProvider<Clock> clocks, ObjectProvider<MeterRegistry> meters,
                                    ObjectProvider<ApiChainFilter> chainFilters)
            throws Exception {
        SecurityProblems problems = new SecurityProblems(json);
        JwtDecoder decoder = decoders.getIfAvailable();
        http.csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers(EndpointRequest.toAnyEndpoint()).permitAll();
                    // The container's error dispatch of a request already refused or failed; it serves no data.
                    requests.requestMatchers("/error").permitAll();
                    // What the API is and what its problems mean are no secret: the OpenAPI document, the page each
                    // problem's type points to, and (local profile only) the Swagger UI.
                    requests.requestMatchers(HttpMethod.GET, "/v3/api-docs", "/v3/api-docs/**", Problems.TYPE_PAGE,
                            "/swagger-ui.html", "/swagger-ui/**").permitAll();
                    access.orderedStream().flatMap(rules -> rules.rules().stream()).forEach(rule -> {
                        if (rule.open()) {
                            requests.requestMatchers(rule.method(), rule.pattern()).permitAll();
                        } else {
                            requests.requestMatchers(rule.method(), rule.pattern()).hasAuthority("SCOPE_" + rule.scope());
                        }
                    });
                    requests.anyRequest().authenticated();
                })
                .oauth2ResourceServer(server -> server
                        .jwt(jwt -> {
                            jwt.jwtAuthenticationConverter(authentication());
                            if (decoder != null && jwtCache.enabled()) {
                                jwt.decoder(cached(decoder, jwtCache, clocks.getIfUnique(Clock::systemUTC), meters));
                            }
                        })
                        .authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems)
                        .withObjectPostProcessor(new ObjectPostProcessor<BearerTokenAuthenticationFilter>() {
                            @Override
                            public <O extends BearerTokenAuthenticationFilter> O postProcess(O filter) {
                                filter.setAuthenticationFailureHandler(problems);
                                return filter;
                            }
                        }))
                .exceptionHandling(exceptions -> exceptions.authenticationEntryPoint(problems).accessDeniedHandler(problems));
        chainFilters.orderedStream().forEach(added -> http.addFilterAfter(added.filter(), BearerTokenAuthenticationFilter.class));
        return http.build();
    }

    /** The issuer's metadata and keys fetched before the service reports ready, not inside its first requests. */
    @Bean
    IssuerKeysWarmUp issuerKeysWarmUp(ObjectProvider<JwtDecoder> decoders) {
        return new IssuerKeysWarmUp(decoders::getIfAvailable);
    }

    /**
     * Timeouts on the decoder's calls to the issuer (discovery, JWKS, a refresh for an unknown key): Spring Security's
     * own client has none, and the decoder makes them under a lock, so an issuer that accepts and never answers would
     * hold every request that brings a token not yet verified for as long as it hangs.
     */
    @Bean
    JwkSetUriJwtDecoderBuilderCustomizer issuerCallTimeouts(ObjectProvider<RestTemplateBuilder> builders) {
        RestOperations client = builders.getIfAvailable(RestTemplateBuilder::new)
                .connectTimeout(ISSUER_CONNECT_TIMEOUT).readTimeout(ISSUER_READ_TIMEOUT).build();
        return builder -> builder.restOperations(client);
    }

    @Bean
    OAuth2TokenValidator<Jwt> subjectValidator() {
        return new SubjectValidator();
    }

    @Bean
    WebMvcConfigurer callerArgument() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new CallerArgumentResolver());
            }
        };
    }

    /**
     * Spring Boot's decoder (issuer, audience, expiry, the validators above) behind the cache of verified tokens. The
     * service's own clock, so a test that moves the service's time moves the tokens' too.
     */
    private static JwtDecoder cached(JwtDecoder decoder, JwtCacheProperties settings, Clock clock,
                                     ObjectProvider<MeterRegistry> meters) {
        CachingJwtDecoder cached = new CachingJwtDecoder(decoder, settings.maximumSize(), clock);
        meters.ifAvailable(registry -> CaffeineCacheMetrics.monitor(registry, cached.cache(), VERIFIED_TOKENS));
        return cached;
    }

    /** Authorities are the token's scopes ({@code SCOPE_member}); the principal's name is its subject. */
    private static JwtAuthenticationConverter authentication() {
        JwtAuthenticationConverter converter = new JwtAuthenticationConverter();
        converter.setJwtGrantedAuthoritiesConverter(new JwtGrantedAuthoritiesConverter());
        converter.setPrincipalClaimName("sub");
        return converter;
    }

}

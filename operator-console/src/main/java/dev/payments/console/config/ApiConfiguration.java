package dev.payments.console.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.console.adapter.out.api.OperatorApi;
import dev.payments.console.adapter.out.api.Service;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.web.client.OAuth2ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/** One client per service, each sending the signed-in operator's access token and nothing else of theirs. */
@Configuration(proxyBeanMethods = false)
class ApiConfiguration {

    @Bean
    OperatorApi operatorApi(ConsoleProperties properties, OAuth2AuthorizedClientManager authorizedClients,
                            RestClient.Builder builder, ObjectMapper json) {
        OAuth2ClientHttpRequestInterceptor operatorToken = new OAuth2ClientHttpRequestInterceptor(authorizedClients);
        operatorToken.setClientRegistrationIdResolver(request -> SecurityConfiguration.REGISTRATION);
        ClientHttpRequestFactorySettings timeouts = ClientHttpRequestFactorySettings.defaults()
                .withConnectTimeout(Duration.ofSeconds(2)).withReadTimeout(properties.callTimeout());
        return new OperatorApi(Map.of(
                Service.RECONCILIATION, client(builder, properties.reconciliationServiceUrl(), operatorToken, timeouts),
                Service.PAYMENT, client(builder, properties.paymentServiceUrl(), operatorToken, timeouts),
                Service.NOTIFICATION, client(builder, properties.notificationServiceUrl(), operatorToken, timeouts),
                Service.ORDER, client(builder, properties.orderServiceUrl(), operatorToken, timeouts)), json);
    }

    private static RestClient client(RestClient.Builder builder, URI baseUrl, OAuth2ClientHttpRequestInterceptor token,
                                     ClientHttpRequestFactorySettings timeouts) {
        return builder.clone().baseUrl(baseUrl.toString()).requestInterceptor(token)
                .requestFactory(ClientHttpRequestFactoryBuilder.detect().build(timeouts)).build();
    }
}

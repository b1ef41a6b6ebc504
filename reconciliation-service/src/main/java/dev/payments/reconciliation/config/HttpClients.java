package dev.payments.reconciliation.config;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The HTTP clients to payment-service and the PG: Boot's {@link RestClient.Builder}, so every call is observed (the
 * {@code http.client.requests} metric and a span that carries the trace to payment-service), on the JDK client with
 * our own timeouts. HTTP/1.1: the JDK client would otherwise try an h2c upgrade on every plain-HTTP call.
 */
final class HttpClients {

    private HttpClients() {
    }

    static RestClient.Builder to(RestClient.Builder boots, URI baseUrl, Duration connectTimeout, Duration readTimeout) {
        return boots.baseUrl(baseUrl.toString())
                .requestFactory(ClientHttpRequestFactoryBuilder.jdk()
                        .withHttpClientCustomizer(client -> client.version(HttpClient.Version.HTTP_1_1))
                        .build(ClientHttpRequestFactorySettings.defaults().withTimeouts(connectTimeout, readTimeout)));
    }
}

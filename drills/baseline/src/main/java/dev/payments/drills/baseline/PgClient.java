package dev.payments.drills.baseline;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import java.util.Map;

/** The PG's confirm and cancel over real HTTP; any non-2xx answer or I/O failure is an exception. */
@Component
public class PgClient {

    private final RestClient rest;

    public PgClient(@Value("${baseline.pg.url}") String url,
                    @Value("${baseline.pg.secret-key:test_sk_simulator}") String secretKey) {
        SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
        // 000's settings: the approval waits up to 15 s for the PG.
        factory.setConnectTimeout(1_000);
        factory.setReadTimeout(15_000);
        this.rest = RestClient.builder().baseUrl(url).requestFactory(factory)
                .defaultHeaders(headers -> headers.setBasicAuth(secretKey, "")).build();
    }

    public void confirm(String paymentKey, String orderId, long amount) {
        rest.post().uri("/v1/payments/confirm").contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("paymentKey", paymentKey, "orderId", orderId, "amount", amount))
                .retrieve().toBodilessEntity();
    }

    public void cancel(String paymentKey, String reason) {
        rest.post().uri("/v1/payments/{paymentKey}/cancel", paymentKey).contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("cancelReason", reason))
                .retrieve().toBodilessEntity();
    }
}

package dev.payments.payment.adapter.out.pg;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.time.Duration;

/**
 * The PG's address and the HTTP timeouts (field reports 001 and 002).
 *
 * @param connectTimeout     no TCP connection within this: the confirm never left, nothing happened (001: 1 s)
 * @param confirmReadTimeout longer than the PG's own 11 s processing limit, so the PG gives up first (002: 15 s)
 * @param queryTimeout       status query
 * @param cancelTimeout      cancel
 */
@Validated
@ConfigurationProperties("pg.client")
public record PgClientProperties(@NotNull URI baseUrl,
                                 @NotBlank String secretKey,
                                 @DefaultValue("1s") Duration connectTimeout,
                                 @DefaultValue("15s") Duration confirmReadTimeout,
                                 @DefaultValue("5s") Duration queryTimeout,
                                 @DefaultValue("5s") Duration cancelTimeout) {
}

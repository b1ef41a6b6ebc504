package dev.payments.support.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * How much of a request a service accepts (docs/security-infrastructure.md, Hostile input).
 *
 * @param maxBodySize the largest request body; larger ones are refused with 413 before they are read. Every request
 *                    and callback of these APIs is a few hundred bytes, so 64 KB leaves room without letting a few
 *                    concurrent uploads fill the heap.
 */
@ConfigurationProperties("api.limits")
public record RequestLimits(@DefaultValue("64KB") DataSize maxBodySize) {

    public RequestLimits {
        if (maxBodySize.toBytes() <= 0) {
            throw new IllegalArgumentException("api.limits.max-body-size must be positive");
        }
    }
}

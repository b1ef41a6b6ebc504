package dev.payments.support.web.overload;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * When a service refuses work it cannot do in time (docs/resilience.md, "Overload: shedding by queue wait").
 *
 * @param enabled    off: every request waits for a thread however long the queue is
 * @param target     the longest a request may wait in the web server's queue once a queue stands; 100 ms is a
 *                   small part of any caller's deadline (001's read timeout of 3 s, a browser's patience) and far
 *                   above the few milliseconds a request waits for a thread when the service keeps up
 * @param interval   how long every request must have waited longer than {@code target} before the queue counts as
 *                   standing: long enough that one burst (000's 100 confirms at once) does not shed, short enough
 *                   to shed within a second of the CPU falling behind
 * @param retryAfter what a refused caller is told to wait before it tries again
 */
@ConfigurationProperties("api.overload")
public record OverloadProperties(@DefaultValue("true") boolean enabled,
                                 @DefaultValue("100ms") Duration target,
                                 @DefaultValue("500ms") Duration interval,
                                 @DefaultValue("1s") Duration retryAfter) {

    public OverloadProperties {
        if (target.isNegative() || target.isZero() || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("api.overload.target and api.overload.interval must be positive");
        }
        if (retryAfter.toMillis() < 1) {
            throw new IllegalArgumentException("api.overload.retry-after must be at least 1 ms");
        }
    }
}

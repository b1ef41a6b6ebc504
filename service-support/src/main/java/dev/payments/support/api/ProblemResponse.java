package dev.payments.support.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A problem an endpoint can answer besides the ones every endpoint shares (bad input, an unexpected failure, the
 * token's refusals): its status and the stable {@code code}s a client may switch on. The service's OpenAPI document
 * lists them per operation, with an example each, and docs/problems.md says what each code means.
 * <pre>
 * &#64;ProblemResponse(status = 404, codes = "ORDER_NOT_FOUND")
 * &#64;GetMapping("/{orderId}")
 * OrderResponse get(...)
 * </pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(ProblemResponses.class)
public @interface ProblemResponse {

    int status();

    String[] codes();
}

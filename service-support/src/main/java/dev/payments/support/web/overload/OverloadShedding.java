package dev.payments.support.web.overload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.web.Problems;
import io.micrometer.core.instrument.Counter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The first filter of every request: one that waited in the web server's queue past the target while a queue
 * stands ({@link SojournShedding}) and more requests wait behind it (every thread busy) is answered 503 {@code OVERLOADED} with {@code Retry-After} at once, before the
 * security chain verifies a token, before a body is read or parsed, before anything is written: the refusal costs
 * a few microseconds of the CPU the admitted requests need, and its caller knows that nothing happened and when to
 * come back. Refusals are counted, and logged when shedding starts and when it stops (one line per episode, not
 * one per request: under overload a line per refusal would spend the CPU the refusal saves).
 */
public final class OverloadShedding implements Filter {

    public static final String OVERLOADED = "OVERLOADED";

    private static final Logger log = LoggerFactory.getLogger(OverloadShedding.class);
    /**
     * An episode ends after this long without a refusal: CoDel sheds in short cycles (the queue drains, stands again
     * within a second), and one overload is one episode to an operator, not four lines a second.
     */
    private static final long QUIET_NANOS = 5_000_000_000L;

    private final SojournShedding shedding;
    private final Counter refused;
    private final byte[] body;
    private final String retryAfterSeconds;
    private final long targetMillis;
    private final AtomicBoolean sheddingAnnounced = new AtomicBoolean();
    private final AtomicLong refusedInEpisode = new AtomicLong();
    private volatile long lastRefusalNanos;

    public OverloadShedding(SojournShedding shedding, Duration target, Duration retryAfter, Counter refused,
                            ObjectMapper json) {
        this.shedding = shedding;
        this.refused = refused;
        this.targetMillis = target.toMillis();
        long retryAfterMs = Math.max(1, retryAfter.toMillis());
        // Whole seconds, rounded up (RFC 9110 has no fractions); the exact value in the body, as every 503 of ours.
        this.retryAfterSeconds = String.valueOf((retryAfterMs + 999) / 1000);
        ProblemDetail problem = Problems.problem(HttpStatus.SERVICE_UNAVAILABLE, OVERLOADED,
                "The service is busier than it can answer in time; nothing was done. Try again after Retry-After.");
        problem.setProperty("retryAfterMs", retryAfterMs);
        try {
            this.body = json.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the OVERLOADED problem", e);
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long handedOver = StampingExecutor.takeHandedOverNanos();
        if (!StampingExecutor.none(handedOver)) {
            long now = System.nanoTime();
            // Shed only with requests waiting behind this one: refusing it must make room for them. A read is never
            // shed (its wait still counts): it is cheap, and while a sick PG holds the confirms the rest of the API
            // must keep answering (field report 000); what overloads a payments service is its writes.
            boolean standing = shedding.shed(now - handedOver, now);
            if (standing && !isRead((HttpServletRequest) request) && StampingExecutor.queueBehind()) {
                lastRefusalNanos = now;
                refuse((HttpServletResponse) response);
                return;
            }
            if (sheddingAnnounced.get() && now - lastRefusalNanos > QUIET_NANOS
                    && sheddingAnnounced.compareAndSet(true, false)) {
                log.info("No longer shedding: {} requests were refused with 503 {} in this episode",
                        refusedInEpisode.getAndSet(0), OVERLOADED);
            }
        }
        chain.doFilter(request, response);
    }

    private static boolean isRead(HttpServletRequest request) {
        String method = request.getMethod();
        return "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
    }

    private void refuse(HttpServletResponse response) throws IOException {
        refused.increment();
        refusedInEpisode.incrementAndGet();
        if (sheddingAnnounced.compareAndSet(false, true)) {
            log.warn("Shedding load: every request waited more than {} ms for a thread; refusing those that waited "
                    + "longer with 503 {} until the queue drains", targetMillis, OVERLOADED);
        }
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
        response.setHeader(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}

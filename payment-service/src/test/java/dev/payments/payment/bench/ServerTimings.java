package dev.payments.payment.bench;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.Ordered;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Server-side time of each confirm, from the outermost servlet filter in to out: what the service itself spends,
 * without the client, the loopback and Tomcat's socket handling. Registered by the benchmark only (an initializer,
 * not a component, so no test context ever picks it up).
 */
final class ServerTimings implements Filter {

    private final long[] nanos;
    private final AtomicInteger next = new AtomicInteger();

    ServerTimings(int capacity) {
        this.nanos = new long[capacity];
    }

    ApplicationContextInitializer<ConfigurableApplicationContext> installer(String urlPattern) {
        return context -> ((GenericApplicationContext) context).registerBean("benchServerTimings",
                FilterRegistrationBean.class, () -> {
                    FilterRegistrationBean<ServerTimings> registration = new FilterRegistrationBean<>(this);
                    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
                    registration.addUrlPatterns(urlPattern);
                    return registration;
                });
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long started = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            long took = System.nanoTime() - started;
            int i = next.getAndIncrement();
            if (i < nanos.length) {
                nanos[i] = took;
            }
        }
    }

    void reset() {
        next.set(0);
    }

    /** The requests since the last reset; null if none. */
    Latencies since(long wallNanos) {
        int n = Math.min(next.get(), nanos.length);
        return n == 0 ? null : Latencies.of(nanos, n, wallNanos);
    }
}

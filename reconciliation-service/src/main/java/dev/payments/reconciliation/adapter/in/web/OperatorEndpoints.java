package dev.payments.reconciliation.adapter.in.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The operator endpoints (incidents, replay, settle now) need {@code X-Operator-Token}. Checked before anything else
 * about the request, so a caller without the token learns nothing, not even that its body was malformed. The read API
 * under {@code /api/reconciliation} (views, summary, ledger, settlements) stays open like the rest of the projection.
 */
@Configuration(proxyBeanMethods = false)
class OperatorEndpoints implements WebMvcConfigurer {

    private final OperatorToken token;

    OperatorEndpoints(OperatorToken token) {
        this.token = token;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new HandlerInterceptor() {
            @Override
            public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
                token.require(request.getHeader(OperatorToken.HEADER));
                return true;
            }
        }).addPathPatterns("/api/incidents", "/api/incidents/**", "/api/replay/**", "/api/reconciliation/settle");
    }
}

package dev.payments.support.security;

import org.springframework.http.HttpMethod;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Who may call which endpoint of one service, declared by the service in its {@code config} and enforced by the shared
 * resource-server chain ({@link ApiSecurityAutoConfiguration}). Reads like the table in docs/security.md:
 * <pre>
 * ApiAccess.builder()
 *         .members(HttpMethod.POST, "/api/payments/confirm")
 *         .scope("payments:sync", HttpMethod.POST, "/api/payments/{paymentId}/sync")
 *         .open(HttpMethod.POST, "/api/pg/webhooks")      // authenticated otherwise (a PG signature)
 *         .build();
 * </pre>
 * The first matching rule wins. A request no rule names still needs a valid token (any scope): a path that does not
 * exist answers 404 to a caller who proved who they are, 401 to anybody else.
 */
public final class ApiAccess {

    /** The scope a member's token carries; operators' and services' tokens do not, so they cannot act as a member. */
    public static final String MEMBER_SCOPE = "member";

    /** @param scope the scope a token needs, or null for an endpoint that authenticates its callers otherwise */
    public record Rule(HttpMethod method, String pattern, String scope) {
        public Rule {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(pattern, "pattern");
        }

        public boolean open() {
            return scope == null;
        }
    }

    private final List<Rule> rules;

    private ApiAccess(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {

        private final List<Rule> rules = new ArrayList<>();

        private Builder() {
        }

        /** A member acting on their own things: the token's subject is the member. */
        public Builder members(HttpMethod method, String... patterns) {
            return scope(MEMBER_SCOPE, method, patterns);
        }

        /** An operator's or a service's action, allowed by one scope. */
        public Builder scope(String scope, HttpMethod method, String... patterns) {
            for (String pattern : patterns) {
                rules.add(new Rule(method, pattern, Objects.requireNonNull(scope, "scope")));
            }
            return this;
        }

        /** No token: the endpoint proves its caller itself (the PG's signed callback). */
        public Builder open(HttpMethod method, String... patterns) {
            for (String pattern : patterns) {
                rules.add(new Rule(method, pattern, null));
            }
            return this;
        }

        public ApiAccess build() {
            return new ApiAccess(rules);
        }
    }
}

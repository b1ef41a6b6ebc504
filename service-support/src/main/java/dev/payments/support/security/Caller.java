package dev.payments.support.security;

import java.util.Set;

/**
 * Who is calling, as the verified token says: the member (or the operator, or the service's client id) is the
 * token's subject, never a header or a body field. A controller takes it as a parameter.
 *
 * @param subject the token's {@code sub}
 * @param scopes  the token's scopes
 */
public record Caller(String subject, Set<String> scopes) {

    public Caller {
        scopes = Set.copyOf(scopes);
    }

    /**
     * For an endpoint whose parameters decide what it does (a stored ledger audit is a read, a fresh one is an
     * action): the path-based rules of {@link ApiAccess} cannot tell, the controller asks here.
     *
     * @throws InsufficientScopeException answered 403 {@code INSUFFICIENT_SCOPE}, like the chain's own refusal
     */
    public void requireScope(String scope) {
        if (!scopes.contains(scope)) {
            throw new InsufficientScopeException(scope);
        }
    }
}

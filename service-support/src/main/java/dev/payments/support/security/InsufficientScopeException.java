package dev.payments.support.security;

/** The token is valid but lacks the scope this use of the endpoint needs (403 {@code INSUFFICIENT_SCOPE}). */
public class InsufficientScopeException extends RuntimeException {

    private final String scope;

    public InsufficientScopeException(String scope) {
        super("The token does not carry the scope " + scope + " this request needs (docs/security.md)");
        this.scope = scope;
    }

    public String scope() {
        return scope;
    }
}

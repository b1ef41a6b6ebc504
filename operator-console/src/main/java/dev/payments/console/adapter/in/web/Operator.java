package dev.payments.console.adapter.in.web;

import java.util.Set;

/**
 * Who is signed in and what their access token allows: the pages show an action only to an operator whose token
 * carries its scope. Hiding is a courtesy; the service refuses the call anyway (403 INSUFFICIENT_SCOPE).
 *
 * @param name   the token's subject, as the services record it
 * @param scopes the scopes the issuer granted (only those the person's role carries)
 */
public record Operator(String name, Set<String> scopes) {

    public static final String READ = "reconciliation:read";
    public static final String SYNC = "payments:sync";
    public static final String INCIDENTS = "incidents:write";
    public static final String DEAD_LETTERS = "dead-letters:read";
    public static final String PAYMENTS_READ = "payments:read";
    public static final String REFUND = "payments:refund";
    public static final String REDRIVE = "dead-letters:write";
    public static final String REPLAY = "events:replay";

    public Operator {
        scopes = Set.copyOf(scopes);
    }

    public boolean may(String scope) {
        return scopes.contains(scope);
    }

    /** A member, or a person whose role carries no operator scope: nothing to show. */
    public boolean isOperator() {
        return may(READ);
    }
}

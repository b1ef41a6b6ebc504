package dev.payments.localstack.identity;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One access token per user and scope set, signed in for once and again shortly before it expires: the drills' load generator and
 * the system tests ask for a member's token on every request and sign in only when needed.
 */
public final class Tokens {

    /** A token this close to its expiry is replaced, so none expires on its way to a service. */
    private static final Duration MARGIN = Duration.ofSeconds(60);

    private final SignIn signIn;
    private final Map<String, SignIn.AccessToken> cached = new ConcurrentHashMap<>();

    public Tokens(URI issuer) {
        this.signIn = new SignIn(issuer);
    }

    /** A member's token ({@code member} scope), with the local profile's member password. */
    public String member(String memberId) {
        return token(Role.MEMBER, memberId);
    }

    /** An operator's token with every operator scope, with the local profile's operator password. */
    public String operator(String operatorId) {
        return token(Role.OPERATOR, operatorId);
    }

    public String token(Role role, String username) {
        return token(username, role.localPassword(), role.scopes());
    }

    /**
     * A token with exactly these scopes, a subset of what the user's role carries (the issuer answers
     * {@code invalid_scope} otherwise): an operator who may only read asks for the read scopes.
     */
    public String token(String username, String password, List<String> scopes) {
        String key = username + "/" + String.join(" ", scopes);
        SignIn.AccessToken token = cached.get(key);
        if (token == null || !token.validFor(MARGIN)) {
            token = signIn.token(username, password, scopes);
            cached.put(key, token);
        }
        return token.value();
    }

    /** The roles of the local issuer, with the scopes each asks for and the local profile's password. */
    public enum Role {
        MEMBER(List.of("openid", "member"), "local-member-password"),
        OPERATOR(List.of("openid", "payments:sync", "payments:read", "payments:refund", "reconciliation:read",
                "ledger:audit", "ledger:export",
                "settlements:run",
                "incidents:write", "events:replay", "dead-letters:read", "dead-letters:write", "renewals:run",
                "renewals:read", "audit:read", "notifications:read", "orders:read"),
                "local-operator-password");

        private final List<String> scopes;
        private final String localPassword;

        Role(List<String> scopes, String localPassword) {
            this.scopes = scopes;
            this.localPassword = localPassword;
        }

        public List<String> scopes() {
            return scopes;
        }

        /** The committed credential of auth-server's application-local.yml; meaningless anywhere else. */
        public String localPassword() {
            return localPassword;
        }
    }
}

package dev.payments.auth.users;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationContext;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationException;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Which scopes a signed-in user may be granted, by role: a member gets {@code member}, an operator the operator
 * scopes. The client (one CLI for everybody) may ask for any of its registered scopes; a request for a scope the user's
 * role does not carry is refused with {@code invalid_scope}, as identity providers do with role-based access
 * (docs/security.md). Runs as part of the authorization request's validation, once the user is signed in.
 */
public final class RoleScopes implements Consumer<OAuth2AuthorizationCodeRequestAuthenticationContext> {

    static final String ROLE_PREFIX = "ROLE_";

    private final Map<String, Set<String>> scopesByRole;

    public RoleScopes(Map<String, List<String>> scopesByRole) {
        this.scopesByRole = scopesByRole.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, entry -> Set.copyOf(entry.getValue())));
    }

    /** The scopes this user may hold; {@code openid} always (it names the user, grants nothing). */
    public Set<String> allowed(Authentication user) {
        Set<String> allowed = new TreeSet<>(Set.of(OidcScopes.OPENID));
        for (GrantedAuthority authority : user.getAuthorities()) {
            String name = authority.getAuthority();
            if (name != null && name.startsWith(ROLE_PREFIX)) {
                allowed.addAll(scopesByRole.getOrDefault(name.substring(ROLE_PREFIX.length()), Set.of()));
            }
        }
        return allowed;
    }

    /**
     * What a client that narrows instead of refusing is granted: the requested scopes this user may hold. Identity
     * providers do the same for a web client whose scopes depend on the user's roles (Keycloak's role scope mappings);
     * the scopes still never exceed the role's.
     */
    public Set<String> narrow(Set<String> requested, Authentication user) {
        Set<String> granted = new TreeSet<>(requested);
        granted.retainAll(allowed(user));
        return granted;
    }

    @Override
    public void accept(OAuth2AuthorizationCodeRequestAuthenticationContext context) {
        OAuth2AuthorizationCodeRequestAuthenticationToken request = context.getAuthentication();
        if (!(request.getPrincipal() instanceof Authentication user) || !user.isAuthenticated()
                || user instanceof AnonymousAuthenticationToken) {
            return; // not signed in yet: the login page comes first, this check runs again afterwards
        }
        Set<String> refused = new TreeSet<>(request.getScopes());
        refused.removeAll(allowed(user));
        if (!refused.isEmpty()) {
            throw new OAuth2AuthorizationCodeRequestAuthenticationException(new OAuth2Error(OAuth2ErrorCodes.INVALID_SCOPE,
                    "This user may not be granted " + String.join(" ", refused), null), request);
        }
    }
}

package dev.payments.auth.users;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.web.authentication.OAuth2AuthorizationCodeRequestAuthenticationConverter;
import org.springframework.security.web.authentication.AuthenticationConverter;

import java.util.Set;

/**
 * Reads an authorization request like Spring Authorization Server does and, for the clients named here (the operator
 * console), replaces the requested scopes with those the signed-in user's role carries. Every other client keeps the
 * strict rule: a scope the role lacks is {@code invalid_scope} (RoleScopes#accept, which still runs after this).
 * Before sign-in nothing is narrowed: the login page comes first and the request is read again afterwards.
 */
public final class NarrowedScopeRequests implements AuthenticationConverter {

    private final AuthenticationConverter requests = new OAuth2AuthorizationCodeRequestAuthenticationConverter();
    private final RoleScopes roleScopes;
    private final Set<String> clientIds;

    public NarrowedScopeRequests(RoleScopes roleScopes, Set<String> clientIds) {
        this.roleScopes = roleScopes;
        this.clientIds = Set.copyOf(clientIds);
    }

    @Override
    public Authentication convert(HttpServletRequest request) {
        Authentication converted = requests.convert(request);
        if (!(converted instanceof OAuth2AuthorizationCodeRequestAuthenticationToken codeRequest)
                || !clientIds.contains(codeRequest.getClientId())
                || !(codeRequest.getPrincipal() instanceof Authentication user) || !user.isAuthenticated()
                || user instanceof AnonymousAuthenticationToken) {
            return converted;
        }
        return new OAuth2AuthorizationCodeRequestAuthenticationToken(codeRequest.getAuthorizationUri(),
                codeRequest.getClientId(), user, codeRequest.getRedirectUri(), codeRequest.getState(),
                roleScopes.narrow(codeRequest.getScopes(), user), codeRequest.getAdditionalParameters());
    }
}

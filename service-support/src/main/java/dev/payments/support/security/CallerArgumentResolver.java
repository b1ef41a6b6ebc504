package dev.payments.support.security;

import org.springframework.core.MethodParameter;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import java.util.Set;
import java.util.stream.Collectors;

/** Fills a controller's {@link Caller} parameter from the verified token. */
final class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    private static final String SCOPE = "SCOPE_";

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Caller.class;
    }

    @Override
    public Caller resolveArgument(MethodParameter parameter, ModelAndViewContainer container, NativeWebRequest request,
                                  WebDataBinderFactory binders) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (!(authentication instanceof JwtAuthenticationToken token)) {
            // Only an endpoint declared open can get here without a token; such an endpoint must not ask who calls.
            throw new AuthenticationCredentialsNotFoundException("This endpoint needs a bearer token");
        }
        Set<String> scopes = token.getAuthorities().stream().map(a -> a.getAuthority())
                .filter(name -> name.startsWith(SCOPE)).map(name -> name.substring(SCOPE.length()))
                .collect(Collectors.toUnmodifiableSet());
        return new Caller(token.getToken().getSubject(), scopes);
    }
}

package dev.payments.auth.grants;

import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;

/**
 * The authorizations in progress (codes, PKCE state, issued tokens), one caller at a time. Spring Authorization
 * Server's in-memory service keeps its not-yet-completed authorizations in a synchronized map but iterates it
 * unsynchronized in {@code findByToken}, so concurrent sign-ins threw ConcurrentModificationException and the token
 * endpoint answered 500 (the drills' members signing in together; DrillsIntegrationTest lost an approval to it).
 * A local issuer signs in a few members a second: serializing is cheaper than a database of its own.
 */
public final class SerializedAuthorizations implements OAuth2AuthorizationService {

    private final OAuth2AuthorizationService delegate;

    public SerializedAuthorizations(OAuth2AuthorizationService delegate) {
        this.delegate = delegate;
    }

    @Override
    public synchronized void save(OAuth2Authorization authorization) {
        delegate.save(authorization);
    }

    @Override
    public synchronized void remove(OAuth2Authorization authorization) {
        delegate.remove(authorization);
    }

    @Override
    public synchronized OAuth2Authorization findById(String id) {
        return delegate.findById(id);
    }

    @Override
    public synchronized OAuth2Authorization findByToken(String token, OAuth2TokenType tokenType) {
        return delegate.findByToken(token, tokenType);
    }
}

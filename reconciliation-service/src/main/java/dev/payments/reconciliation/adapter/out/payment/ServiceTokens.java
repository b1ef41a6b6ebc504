package dev.payments.reconciliation.adapter.out.payment;

import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;

/**
 * reconciliation-service's own access token for payment-service (client credentials, scope {@code payments:sync}),
 * through Spring Security's client manager: fetched once, kept while valid, fetched again shortly before it expires.
 * Only the settler's threads use it, never a user's request, so the manager is the one for service-to-service calls.
 */
public class ServiceTokens {

    /** Whom the token is for, from payment-service's point of view: this service itself. */
    static final String PRINCIPAL = "reconciliation-service";

    private final OAuth2AuthorizedClientManager manager;
    private final OAuth2AuthorizedClientService store;
    private final String registrationId;

    public ServiceTokens(OAuth2AuthorizedClientManager manager, OAuth2AuthorizedClientService store,
                         String registrationId) {
        this.manager = manager;
        this.store = store;
        this.registrationId = registrationId;
    }

    /** @throws org.springframework.security.oauth2.core.OAuth2AuthorizationException the issuer refused or is unreachable */
    public String current() {
        OAuth2AuthorizedClient client = manager.authorize(OAuth2AuthorizeRequest.withClientRegistrationId(registrationId)
                .principal(PRINCIPAL).build());
        if (client == null) {
            throw new IllegalStateException("No client registration " + registrationId + " for client credentials");
        }
        return client.getAccessToken().getTokenValue();
    }

    /** After a 401 (the issuer rotated its key, or revoked the token): the next call fetches a new one. */
    public void forget() {
        store.removeAuthorizedClient(registrationId, PRINCIPAL);
    }
}

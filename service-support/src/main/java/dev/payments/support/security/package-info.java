/** Every service's API as an OAuth2 resource server: the shared chain, the caller, the refusals (docs/security.md). */
package dev.payments.support.security;

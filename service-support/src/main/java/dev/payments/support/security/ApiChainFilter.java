package dev.payments.support.security;

import jakarta.servlet.Filter;

/**
 * A filter another part of service-support puts into the API's security chain, right after the bearer token is read
 * (so it knows the caller, and sees the chain's own refusals). A holder, not a {@link Filter} bean: Spring Boot would
 * register a Filter bean for every request of the container as well.
 */
public record ApiChainFilter(Filter filter) {
}

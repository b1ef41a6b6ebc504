/** HTTP read API under {@code /api/reconciliation}; errors as RFC 9457 problem+json with a stable {@code code}. */
package dev.payments.reconciliation.adapter.in.web;

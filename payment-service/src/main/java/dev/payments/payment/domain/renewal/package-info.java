/** Subscriptions and their renewals: one charge per (subscription, period), retried by the dunning rules. */
package dev.payments.payment.domain.renewal;

/** The HTTP API: projection reads, settler, incidents, ledger, replay; problem+json with a stable {@code code}. */
package dev.payments.reconciliation.adapter.in.web;

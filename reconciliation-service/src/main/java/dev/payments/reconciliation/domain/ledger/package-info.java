/** The ledger audit's matching rules: each PG approval is a PAID order, a cancellation, an incident or in flight. */
package dev.payments.reconciliation.domain.ledger;

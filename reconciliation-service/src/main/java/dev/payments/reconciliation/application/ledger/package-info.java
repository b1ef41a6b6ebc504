/** The ledger audit against the PG's books: run, store, escalate, and repair what the PG cancelled; its ports. */
package dev.payments.reconciliation.application.ledger;

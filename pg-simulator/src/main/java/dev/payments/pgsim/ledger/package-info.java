/** The PG's own books: payments, their states and the APPROVE/CANCEL transactions reconciliation audits against. */
package dev.payments.pgsim.ledger;

/** HTTP client of the PG's transaction listing: the ledger audit's independent witness of the PG's books. */
package dev.payments.reconciliation.adapter.out.pg;

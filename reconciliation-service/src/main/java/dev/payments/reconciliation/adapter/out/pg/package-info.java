/** HTTP client of the PG's read API: the transaction listing (ledger audit) and an order's status (diagnosis). */
package dev.payments.reconciliation.adapter.out.pg;

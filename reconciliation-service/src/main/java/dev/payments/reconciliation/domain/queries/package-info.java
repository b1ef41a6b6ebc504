/** What the read API derives from the projection: the counts by state that are our side of the ledger identity. */
package dev.payments.reconciliation.domain.queries;

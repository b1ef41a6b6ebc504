/** The clock as a driver: the settle cycle and the ledger audit, each one {@code @Scheduled} method on its own bean. */
package dev.payments.reconciliation.adapter.in.schedule;

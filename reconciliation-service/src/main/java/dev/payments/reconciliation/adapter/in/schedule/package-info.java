/** The clock as a driver: the settle cycle and the ledger audit on their schedules. */
package dev.payments.reconciliation.adapter.in.schedule;

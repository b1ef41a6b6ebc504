/** This service's own PostgreSQL through {@code JdbcClient}: views, history, settlements, incidents, ledger audits. */
package dev.payments.reconciliation.adapter.out.persistence;

/** The views and the event history in this service's own PostgreSQL database, through {@code JdbcClient}. */
package dev.payments.reconciliation.adapter.out.persistence;

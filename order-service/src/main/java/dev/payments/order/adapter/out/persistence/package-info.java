/** Orders and their outbox events in PostgreSQL through Spring's JdbcClient, on the caller's transaction. */
package dev.payments.order.adapter.out.persistence;

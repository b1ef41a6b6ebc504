/** Notifications in PostgreSQL through Spring's JdbcClient. */
package dev.payments.notification.adapter.out.persistence;

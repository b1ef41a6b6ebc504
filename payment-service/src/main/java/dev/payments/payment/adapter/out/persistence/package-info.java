/** PostgreSQL storage of payments, the payable-order view and idempotency keys (Spring JdbcClient, Flyway schema). */
package dev.payments.payment.adapter.out.persistence;

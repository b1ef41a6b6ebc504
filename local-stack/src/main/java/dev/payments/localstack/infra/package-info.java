/** Embedded PostgreSQL and an in-process Kafka broker, shared by the local stack and other modules' integration tests. */
package dev.payments.localstack.infra;

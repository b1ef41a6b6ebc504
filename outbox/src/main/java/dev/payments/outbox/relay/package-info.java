/** The Debezium embedded engine that streams the outbox table to Kafka, one active relay per database. */
package dev.payments.outbox.relay;

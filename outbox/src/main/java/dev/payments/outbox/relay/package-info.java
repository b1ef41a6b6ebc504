/**
 * Publishing the outbox table to Kafka: the Debezium relay (slot streaming), the polling relay (fallback over the same
 * table), the fenced single-active lease, and the published watermark both relays continue from.
 */
package dev.payments.outbox.relay;

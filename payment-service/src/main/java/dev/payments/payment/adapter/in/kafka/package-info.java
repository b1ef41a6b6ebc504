/** Kafka listeners: parse, dedupe through the inbox, hand over to a use case. */
package dev.payments.payment.adapter.in.kafka;

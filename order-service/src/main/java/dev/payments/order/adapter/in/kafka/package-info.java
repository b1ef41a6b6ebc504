/** Consumers of other services' events; each hands the event to a use case through the inbox. */
package dev.payments.order.adapter.in.kafka;

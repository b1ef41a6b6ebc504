/** Consumers of other services' events; each hands the event to a use case through the inbox. */
package dev.payments.notification.adapter.in.kafka;

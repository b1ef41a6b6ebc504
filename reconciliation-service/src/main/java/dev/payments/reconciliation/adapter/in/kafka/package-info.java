/** Listeners on {@code order.events} and {@code payment.events}: each record applied once through the inbox. */
package dev.payments.reconciliation.adapter.in.kafka;

/** Channels that reach customers; for now one that writes each message to the log. */
package dev.payments.notification.adapter.out.delivery;

/** Work this service starts on its own clock: the delivery of due notifications. */
package dev.payments.notification.adapter.in.schedule;

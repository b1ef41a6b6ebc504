/** Notifications to customers about their payments, and the rules for when to send which; no Spring, no SQL. */
package dev.payments.notification.domain;

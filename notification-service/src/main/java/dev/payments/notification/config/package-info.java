/** Spring wiring and typed configuration of notification-service. */
package dev.payments.notification.config;

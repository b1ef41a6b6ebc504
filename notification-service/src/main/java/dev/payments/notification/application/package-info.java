/** Use cases of notification-service, one class each, and the ports they need. */
package dev.payments.notification.application;

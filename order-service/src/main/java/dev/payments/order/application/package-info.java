/** Use cases of order-service, one class each, and the ports they need. */
package dev.payments.order.application;

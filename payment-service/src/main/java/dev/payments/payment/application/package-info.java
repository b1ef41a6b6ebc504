/** Use cases of payment-service, one class each, and the ports they need. */
package dev.payments.payment.application;

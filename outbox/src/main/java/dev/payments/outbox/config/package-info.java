/** Spring Boot auto-configuration and properties of the outbox and inbox. */
package dev.payments.outbox.config;

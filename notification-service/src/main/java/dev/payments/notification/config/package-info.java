/** Spring wiring and typed configuration of notification-service: the use cases and the delivery schedule, built here
 * by {@code @Bean}. */
package dev.payments.notification.config;

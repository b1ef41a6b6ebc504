/** Spring wiring of order-service: the use cases, built here by {@code @Bean}, and what no single adapter owns. */
package dev.payments.order.config;

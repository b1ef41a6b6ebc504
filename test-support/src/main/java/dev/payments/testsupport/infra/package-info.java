/**
 * One PostgreSQL and Kafka per test JVM (local-stack's embedded servers, or containers), topic readers, a movable clock,
 * a TCP proxy that cuts connections, and the check of a service's committed OpenAPI document.
 */
package dev.payments.testsupport.infra;

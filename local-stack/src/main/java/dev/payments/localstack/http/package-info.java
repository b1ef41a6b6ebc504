/**
 * The test equipment's HTTP client, {@link dev.payments.localstack.http.Http}: the one client the launcher, the drills
 * and the tests call the services with. HTTP as an attacker writes it is test-support's {@code RawHttp}.
 */
package dev.payments.localstack.http;

/**
 * The test equipment's HTTP: {@link dev.payments.localstack.http.Http}, the one client the launcher, the drills and the
 * tests call the services with, and {@link dev.payments.localstack.http.RawHttp}, HTTP as an attacker writes it, byte
 * by byte, for the tests of what the services refuse.
 */
package dev.payments.localstack.http;

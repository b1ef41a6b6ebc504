/** HTTP as an attacker writes it, byte by byte, for the tests of what the services refuse. */
package dev.payments.testsupport.http;

/** Test support: a JDK HttpClient that talks to the simulator like a merchant server. */
package dev.payments.pgsim.testing;

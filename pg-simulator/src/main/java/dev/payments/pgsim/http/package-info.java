/** HTTP plumbing on Reactor Netty shared by the gateway and admin servers: replies, JSON, connection tricks. */
package dev.payments.pgsim.http;

/** The pages: overview, payments, incidents; each action is one call to the service that owns it. */
package dev.payments.console.adapter.in.web;

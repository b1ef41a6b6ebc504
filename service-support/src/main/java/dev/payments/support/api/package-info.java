/** Every service's OpenAPI document, built from the same sources that enforce the API: its access rules and problems. */
package dev.payments.support.api;

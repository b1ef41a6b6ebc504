/** Sign-in (OAuth2 login at the issuer), the API clients and the console's settings. */
package dev.payments.console.config;

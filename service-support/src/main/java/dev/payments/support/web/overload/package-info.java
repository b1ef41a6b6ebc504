/** Refusing, cheaply and early, the requests a service could not answer in time (CoDel on Tomcat's queue). */
package dev.payments.support.web.overload;

package dev.payments.support.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorMvcAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Registers {@link CommonApiProblems}, {@link ProblemErrorController} (Boot's own problem-details handler and its
 * error controller then back off) and the page the problems' types point to ({@link ProblemTypes}).
 */
@AutoConfiguration(before = {WebMvcAutoConfiguration.class, ErrorMvcAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@Import({CommonApiProblems.class, ProblemErrorController.class, ProblemTypes.class})
public class ProblemsAutoConfiguration {
}

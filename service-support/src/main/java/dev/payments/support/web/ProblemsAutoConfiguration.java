package dev.payments.support.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Registers {@link CommonApiProblems} (Boot's own problem-details handler then backs off) and the page the problems'
 * types point to ({@link ProblemTypes}).
 */
@AutoConfiguration(before = WebMvcAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@Import({CommonApiProblems.class, ProblemTypes.class})
public class ProblemsAutoConfiguration {
}

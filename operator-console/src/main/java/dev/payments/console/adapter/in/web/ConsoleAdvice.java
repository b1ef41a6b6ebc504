package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.ApiProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;

import java.util.Set;

/**
 * What every page knows (the operator and their scopes) and how a failure is shown: the problem's {@code code} and
 * detail as the service answered them, on the console's own page, never a stack trace.
 */
@ControllerAdvice
class ConsoleAdvice {

    private static final Logger log = LoggerFactory.getLogger(ConsoleAdvice.class);

    private final OAuth2AuthorizedClientRepository authorizedClients;

    ConsoleAdvice(OAuth2AuthorizedClientRepository authorizedClients) {
        this.authorizedClients = authorizedClients;
    }

    @ModelAttribute("operator")
    Operator operator(HttpServletRequest request) {
        Authentication person = SecurityContextHolder.getContext().getAuthentication();
        if (person == null) {
            return new Operator("", Set.of());
        }
        OAuth2AuthorizedClient client = authorizedClients.loadAuthorizedClient(Pages.REGISTRATION, person, request);
        Set<String> scopes = client == null ? Set.of() : client.getAccessToken().getScopes();
        return new Operator(person.getName(), scopes);
    }

    // An exception handler's model is a new one, without the @ModelAttribute above: each handler adds the operator
    // itself, or the page's header (who is signed in) cannot render and the problem becomes a 500.
    @ExceptionHandler(ApiProblem.class)
    String problem(ApiProblem problem, Model model, HttpServletRequest request, HttpServletResponse response) {
        model.addAttribute("operator", operator(request));
        response.setStatus(problem.status());
        model.addAttribute("problem", problem);
        return "problem";
    }

    @ExceptionHandler(Pages.BadInput.class)
    String badInput(Pages.BadInput bad, Model model, HttpServletRequest request, HttpServletResponse response) {
        model.addAttribute("operator", operator(request));
        response.setStatus(400);
        model.addAttribute("problem", new ApiProblem(400, "VALIDATION_FAILED", bad.getMessage()));
        return "problem";
    }

    @ExceptionHandler(RuntimeException.class)
    String failure(RuntimeException failure, Model model, HttpServletRequest request, HttpServletResponse response) {
        log.error("Console page failed", failure);
        model.addAttribute("operator", operator(request));
        response.setStatus(500);
        model.addAttribute("problem", new ApiProblem(500, "CONSOLE_FAILURE", "The console failed; the log has the details."));
        return "problem";
    }
}

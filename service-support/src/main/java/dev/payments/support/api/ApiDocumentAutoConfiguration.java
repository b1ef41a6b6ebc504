package dev.payments.support.api;

import dev.payments.support.security.ApiAccess;
import dev.payments.support.security.Caller;
import dev.payments.support.web.Problems;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpStatus;
import org.springframework.util.AntPathMatcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every service's OpenAPI 3 document (springdoc) from the sources that enforce the API, not from a second list: the
 * security requirement of each operation from the service's {@link ApiAccess} (the same rules the resource-server chain
 * applies, first match wins), and its problem responses from the problems every endpoint shares plus its own
 * {@link ProblemResponse}s, each code with an example whose {@code type} is the code's page ({@link Problems#type}).
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(GlobalOpenApiCustomizer.class)
public class ApiDocumentAutoConfiguration {

    static final String BEARER = "bearer";
    static final String PROBLEM_SCHEMA = "Problem";
    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String SCHEMA_REF = "#/components/schemas/" + PROBLEM_SCHEMA;

    static {
        // The caller is the verified token, resolved by CallerArgumentResolver: no parameter a client sends.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
    }

    @Bean
    @ConditionalOnMissingBean
    OpenAPI serviceApi(@Value("${spring.application.name}") String service) {
        return new OpenAPI()
                .info(new Info().title(service).version("1")
                        .description("The HTTP API of " + service + ". Every error is RFC 9457 problem+json with a "
                                + "stable `code`; its `type` is the code's page (/problems). Scopes: docs/security.md."))
                // Relative, so the document is the same wherever the service runs (and in docs/api/).
                .servers(List.of(new Server().url("/")))
                .components(new Components()
                        .addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .bearerFormat("JWT").description("An access token of the issuer the service trusts, "
                                        + "meant for this service (audience); the scopes each operation needs are "
                                        + "listed in its security requirement"))
                        .addSchemas(PROBLEM_SCHEMA, problemSchema()));
    }

    /**
     * The problems every endpoint shares besides the token's: bad input, a body too large or not JSON, an unexpected
     * failure.
     */
    @Bean
    GlobalOperationCustomizer problemResponses() {
        return (operation, handler) -> {
            List<String> badInput = new ArrayList<>(List.of(Problems.VALIDATION_FAILED, Problems.MALFORMED_REQUEST));
            if (operation.getParameters() != null && operation.getParameters().stream()
                    .anyMatch(p -> "header".equals(p.getIn()) && Boolean.TRUE.equals(p.getRequired()))) {
                badInput.add(Problems.MISSING_HEADER);
            }
            for (ProblemResponse declared : AnnotatedElementUtils.findMergedRepeatableAnnotations(handler.getMethod(),
                    ProblemResponse.class)) {
                addProblems(operation, declared.status(), List.of(declared.codes()));
            }
            addProblems(operation, HttpStatus.BAD_REQUEST.value(), badInput);
            if (operation.getRequestBody() != null) {
                // BodySizeLimit refuses any request's oversized body; only these take one a client would send.
                addProblems(operation, HttpStatus.PAYLOAD_TOO_LARGE.value(), List.of(Problems.PAYLOAD_TOO_LARGE));
                // JsonBodiesOnly refuses a body in any other media type (a form, multipart, text) or charset.
                addProblems(operation, HttpStatus.UNSUPPORTED_MEDIA_TYPE.value(), List.of(Problems.UNSUPPORTED_MEDIA_TYPE));
            }
            addProblems(operation, HttpStatus.INTERNAL_SERVER_ERROR.value(), List.of(Problems.INTERNAL_ERROR));
            return operation;
        };
    }

    /** Who may call each operation, from the rules the security chain enforces, and the token's refusals. */
    @Bean
    GlobalOpenApiCustomizer accessRules(ObjectProvider<ApiAccess> access) {
        return openApi -> {
            List<ApiAccess.Rule> rules = access.orderedStream().flatMap(a -> a.rules().stream()).toList();
            if (openApi.getPaths() == null) {
                return;
            }
            openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                    secure(operation, rule(rules, method, path))));
        };
    }

    private static Optional<ApiAccess.Rule> rule(List<ApiAccess.Rule> rules, PathItem.HttpMethod method, String path) {
        AntPathMatcher paths = new AntPathMatcher();
        return rules.stream()
                .filter(rule -> rule.method().name().equals(method.name()) && paths.match(rule.pattern(), path))
                .findFirst();
    }

    private static void secure(Operation operation, Optional<ApiAccess.Rule> rule) {
        if (rule.isPresent() && rule.get().open()) {
            // Proven otherwise (the PG's signature): an empty requirement says "no token".
            operation.setSecurity(List.of());
            return;
        }
        // No rule: any valid token of the issuer (ApiAccess); a rule: a token with its scope.
        List<String> scopes = rule.map(r -> List.of(r.scope())).orElse(List.of());
        operation.setSecurity(List.of(new SecurityRequirement().addList(BEARER, scopes)));
        addProblems(operation, HttpStatus.UNAUTHORIZED.value(), List.of("UNAUTHENTICATED", "INVALID_TOKEN"));
        if (!scopes.isEmpty()) {
            addProblems(operation, HttpStatus.FORBIDDEN.value(), List.of("INSUFFICIENT_SCOPE"));
        }
        addProblems(operation, HttpStatus.SERVICE_UNAVAILABLE.value(), List.of("IDENTITY_PROVIDER_UNAVAILABLE"));
    }

    /** Adds codes to the operation's response of {@code status}, after any it has; one example per code. */
    static void addProblems(Operation operation, int status, List<String> codes) {
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        String key = String.valueOf(status);
        ApiResponse response = operation.getResponses().computeIfAbsent(key, k -> new ApiResponse());
        Content content = response.getContent() == null ? new Content() : response.getContent();
        MediaType problem = content.computeIfAbsent(PROBLEM_JSON,
                k -> new MediaType().schema(new Schema<>().$ref(SCHEMA_REF)));
        Map<String, Example> examples = problem.getExamples() == null ? new LinkedHashMap<>() : problem.getExamples();
        for (String code : codes) {
            examples.putIfAbsent(code, new Example().summary(code).value(example(status, code)));
        }
        problem.setExamples(examples);
        response.setContent(content);
        Set<String> all = new LinkedHashSet<>(examples.keySet());
        response.setDescription(HttpStatus.valueOf(status).getReasonPhrase() + ": problem+json with `code` one of "
                + String.join(", ", all));
    }

    private static Map<String, Object> example(int status, String code) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("type", Problems.type(code).toString());
        value.put("title", HttpStatus.valueOf(status).getReasonPhrase());
        value.put("status", status);
        value.put("detail", "What went wrong, for a person; switch on code, not on this text");
        value.put("code", code);
        return value;
    }

    private static Schema<?> problemSchema() {
        return new ObjectSchema()
                .description("RFC 9457 problem details with the stable code clients switch on; further properties "
                        + "(paymentId, retryAfterMs, ...) as documented per code in docs/problems.md")
                .addProperty("type", new StringSchema().format("uri-reference")
                        .description("The page describing the code: /problems#<code in lower case>"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema().format("int32"))
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri-reference"))
                .addProperty("code", new StringSchema().description("Stable; see docs/problems.md"))
                .additionalProperties(true)
                .required(List.of("type", "title", "status", "code"));
    }
}

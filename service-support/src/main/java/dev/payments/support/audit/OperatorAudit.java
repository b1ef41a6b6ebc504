package dev.payments.support.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.security.ApiAccess;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingRequestWrapper;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Records every operator action of this service, from whichever client. An operator action is a request that is not a
 * read, on a route whose {@link ApiAccess} rule needs a scope other than {@code member}: the service's own declaration
 * of who may act, so a new operator endpoint is audited without a line of its own.
 * <ul>
 *   <li>A change: every transaction that commits while the request is served writes its row <em>in that
 *       transaction</em> (a {@link TransactionExecutionListener} registers the write before commit), so a change is
 *       never kept without its record, and a record never outlives a change that rolled back.</li>
 *   <li>A refusal (no token, no scope, bad input, an illegal transition) or a failure changed nothing: its row is
 *       written once the answer is known, in its own transaction.</li>
 *   <li>An action that succeeded without a transaction of ours (a dry run, a reset of Kafka offsets) is recorded the
 *       same way after its answer; should the process die between the two, that record is lost — the only gap.</li>
 * </ul>
 * The filter sits in the security chain after the bearer token is read, so a refused operator is named; a token that
 * fails verification is refused before it and names nobody.
 */
public final class OperatorAudit implements TransactionExecutionListener {

    private static final Logger log = LoggerFactory.getLogger(OperatorAudit.class);
    /** The fields that carry an operator's why, in the services' request bodies. */
    private static final List<String> REASON_FIELDS = List.of("reason", "resolution", "note");
    /** What an action names in its body rather than its route (a replay's consumer group, topic and start). */
    private static final List<String> OBJECT_FIELDS = List.of("group", "topic", "from");
    private static final int BODY_CACHE = 16 * 1024;

    private final ThreadLocal<Pending> current = new ThreadLocal<>();
    private final OperatorActionLog actionLog;
    private final List<Action> actions;
    private final ObjectMapper json;
    private final Clock clock;

    public OperatorAudit(OperatorActionLog actionLog, List<ApiAccess.Rule> rules, ObjectMapper json, Clock clock) {
        this.actionLog = actionLog;
        this.actions = rules.stream()
                .filter(rule -> !rule.open() && !ApiAccess.MEMBER_SCOPE.equals(rule.scope()))
                .filter(rule -> !HttpMethod.GET.equals(rule.method()) && !HttpMethod.HEAD.equals(rule.method()))
                .map(rule -> new Action(rule, PathPatternRequestMatcher.withDefaults().matcher(rule.method(), rule.pattern())))
                .toList();
        this.json = json;
        this.clock = clock;
    }

    /** Whether this service has any operator action to record. */
    public boolean hasActions() {
        return !actions.isEmpty();
    }

    /** A new filter for the security chain (not a bean: Boot would also register a Filter bean for every request). */
    public OncePerRequestFilter filter() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                Action action = null;
                RequestMatcher.MatchResult match = RequestMatcher.MatchResult.notMatch();
                for (Action candidate : actions) {
                    match = candidate.matcher().matcher(request);
                    if (match.isMatch()) {
                        action = candidate;
                        break;
                    }
                }
                if (action == null) {
                    chain.doFilter(request, response);
                    return;
                }
                ContentCachingRequestWrapper cached = new ContentCachingRequestWrapper(request, BODY_CACHE);
                Pending pending = new Pending(cached, request.getMethod() + " " + action.rule().pattern(),
                        match.getVariables());
                current.set(pending);
                try {
                    chain.doFilter(cached, response);
                } finally {
                    current.remove();
                    afterAnswer(pending, response.getStatus());
                }
            }
        };
    }

    @Override
    public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
        Pending pending = current.get();
        if (pending == null || beginFailure != null || !transaction.isNewTransaction()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
                if (!readOnly) {
                    // Through the transaction's own connection: if this insert fails, the change rolls back with it.
                    actionLog.insert(pending.describe(OperatorAction.Result.DONE, null, true));
                }
            }

            @Override
            public void afterCommit() {
                pending.committed++;
            }
        });
    }

    private void afterAnswer(Pending pending, int status) {
        if (status < 400 && pending.committed > 0) {
            return; // recorded with each committed change
        }
        OperatorAction.Result result = status >= 500 ? OperatorAction.Result.FAILED
                : status >= 400 ? OperatorAction.Result.REFUSED : OperatorAction.Result.DONE;
        try {
            actionLog.insert(pending.describe(result, status, false));
        } catch (RuntimeException e) {
            // The answer is already sent; what it did is in the service's log with the same route and subject.
            log.error("Could not record operator action {} by {} ({})", pending.route(), pending.subject(), status, e);
        }
    }

    private record Action(ApiAccess.Rule rule, RequestMatcher matcher) {
    }

    /** The request being served, read when its record is written (by then the controller has read the body). */
    private final class Pending {
        private final ContentCachingRequestWrapper request;
        private final String route;
        private final Map<String, String> variables;
        /**
         * When the request arrived: the record's time. A refusal's record is written after its answer has left, so the
         * caller's next request can be recorded first; stamped on arrival, the trail keeps the order the caller acted in.
         */
        private final Instant arrived = clock.instant();
        private int committed;

        Pending(ContentCachingRequestWrapper request, String route, Map<String, String> variables) {
            this.request = request;
            this.route = route;
            this.variables = Map.copyOf(variables);
        }

        String subject() {
            Authentication caller = SecurityContextHolder.getContext().getAuthentication();
            return caller == null || caller instanceof AnonymousAuthenticationToken ? "anonymous" : caller.getName();
        }

        String route() {
            return route;
        }

        /**
         * The route's ids in the rule's order ({@code {group}/{eventId}} gives {@code group/eventId}), then what the body
         * names ({@link #OBJECT_FIELDS}), so the record says what an action acted on wherever the caller named it.
         */
        String objectId() {
            List<String> names = new java.util.ArrayList<>(variables.keySet());
            names.sort(java.util.Comparator.comparingInt(name -> route.indexOf("{" + name + "}")));
            List<String> ids = new java.util.ArrayList<>(names.stream().map(variables::get).toList());
            JsonNode sent = sent();
            if (sent != null) {
                OBJECT_FIELDS.stream().map(sent::path).filter(JsonNode::isTextual).map(JsonNode::asText)
                        .forEach(ids::add);
            }
            return ids.isEmpty() ? null : String.join("/", ids);
        }

        /** The JSON body as the controller read it; null if nobody read it or it is not JSON. */
        private JsonNode sent() {
            byte[] body = request.getContentAsByteArray();
            if (body.length == 0) {
                return null;
            }
            try {
                return json.readTree(body);
            } catch (IOException notJson) {
                return null; // refused as malformed by the service; the record says REFUSED
            }
        }

        /**
         * The why, and whether it was a dry run, from the JSON body as the controller read it. A request refused before
         * any controller (no token, no scope) had its body read by nobody: its record has no reason.
         */
        String reason() {
            JsonNode sent = sent();
            if (sent == null) {
                return null;
            }
            String why = REASON_FIELDS.stream().map(sent::path).filter(JsonNode::isTextual).map(JsonNode::asText)
                    .findFirst().orElse(null);
            if (sent.path("dryRun").asBoolean(false)) {
                return why == null ? "dry run" : "dry run: " + why;
            }
            return why;
        }

        OperatorAction describe(OperatorAction.Result result, Integer status, boolean inTransaction) {
            return new OperatorAction(UUID.randomUUID(), arrived, subject(), route(), objectId(), reason(),
                    result, status, inTransaction);
        }
    }
}

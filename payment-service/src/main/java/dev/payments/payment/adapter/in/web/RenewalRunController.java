package dev.payments.payment.adapter.in.web;

import dev.payments.payment.application.renewal.RenewSubscriptions;
import dev.payments.payment.application.renewal.RenewalRuns;
import dev.payments.payment.domain.renewal.RenewalRun;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.Problems;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * An operator starts a renewal run (scope {@code renewals:run}) and reads the run records ({@code renewals:read}).
 * Starting one while another runs is safe: they share the due periods.
 */
@RestController
@RequestMapping("/api/renewals/runs")
class RenewalRunController {


    private final RenewSubscriptions renew;
    private final RenewalRuns runs;
    private final ExecutorService executor;

    RenewalRunController(RenewSubscriptions renew, RenewalRuns runs, ExecutorService renewalRunExecutor) {
        this.renew = renew;
        this.runs = runs;
        this.executor = renewalRunExecutor;
    }

    /** 202 with the run record; the run goes on after the answer. */
    @ApiResponse(responseCode = "202", description = "The run record; the run goes on after the answer",
            content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 503, codes = "SHUTTING_DOWN")
    @PostMapping
    ResponseEntity<?> start(Caller operator) {
        RenewalRun run = renew.begin(RenewalRun.Trigger.OPERATOR, operator.subject());
        try {
            executor.execute(() -> renew.execute(run));
        } catch (RejectedExecutionException e) {
            return Problems.response(HttpStatus.SERVICE_UNAVAILABLE, "SHUTTING_DOWN", "The service is stopping");
        }
        return ResponseEntity.accepted().location(URI.create("/api/renewals/runs/" + run.id())).body(run);
    }

    @ProblemResponse(status = 404, codes = "RUN_NOT_FOUND")
    @GetMapping("/{runId}")
    ResponseEntity<?> get(@PathVariable UUID runId) {
        return runs.findById(runId).<ResponseEntity<?>>map(ResponseEntity::ok)
                .orElseGet(() -> Problems.response(HttpStatus.NOT_FOUND, "RUN_NOT_FOUND", "No renewal run " + runId));
    }

    @GetMapping
    List<RenewalRun> latest() {
        return runs.latest(20);
    }
}

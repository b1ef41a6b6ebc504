package dev.payments.support.audit;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.List;

/**
 * The audit trail of this service's operator actions (scope {@code audit:read}), newest first, a page at a time: who
 * did what to which object, why, when and how it ended. The console reads it from every service that has one.
 */
@RestController
@Validated
public class OperatorActionController {

    public static final String PATH = "/api/operator-actions";
    public static final String SCOPE = "audit:read";

    private final OperatorActionLog actions;

    public OperatorActionController(OperatorActionLog actions) {
        this.actions = actions;
    }

    /** @param hasMore whether a next page exists */
    public record ActionPage(int page, int size, boolean hasMore, List<OperatorAction> actions) {
    }

    @GetMapping(PATH)
    public ActionPage search(@RequestParam(required = false) @Size(max = 128) @Pattern(regexp = "\\p{Graph}+") String subject,
                             @RequestParam(required = false) @Size(max = 200) @Pattern(regexp = "\\p{Graph}+") String objectId,
                             @RequestParam(required = false) OperatorAction.Result result,
                             @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
                             @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
                             @RequestParam(defaultValue = "0") @Min(0) @Max(10_000) int page,
                             @RequestParam(defaultValue = "50") @Min(1) @Max(200) int size) {
        List<OperatorAction> found = actions.search(new OperatorActionLog.Criteria(subject, objectId, result, from, to),
                page, size + 1);
        return new ActionPage(page, size, found.size() > size, found.stream().limit(size).toList());
    }
}

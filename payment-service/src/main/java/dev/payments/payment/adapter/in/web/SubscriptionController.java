package dev.payments.payment.adapter.in.web;

import dev.payments.contracts.Money;
import dev.payments.payment.application.renewal.CancelSubscription;
import dev.payments.payment.application.renewal.CreateSubscription;
import dev.payments.payment.application.renewal.Subscriptions;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.renewal.Subscription;
import dev.payments.payment.domain.renewal.SubscriptionId;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;

/** A member's subscriptions. The member is the token's subject; another member's subscription answers 404. */
@RestController
@RequestMapping("/api/subscriptions")
class SubscriptionController {

    private final CreateSubscription createSubscription;
    private final CancelSubscription cancelSubscription;
    private final Subscriptions subscriptions;

    SubscriptionController(CreateSubscription createSubscription, CancelSubscription cancelSubscription,
                           Subscriptions subscriptions) {
        this.createSubscription = createSubscription;
        this.cancelSubscription = cancelSubscription;
        this.subscriptions = subscriptions;
    }

    /**
     * @param billingKey  the key the PG issued to this member (Toss: {@code /v1/billing/authorizations/issue} with the
     *                    member as customerKey); the PG refuses a charge of it for anyone else
     * @param firstPeriod the first day to be charged; absent: today, charged by the next run
     */
    record CreateRequest(@NotBlank @Size(max = 100) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS,
                                 message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String plan,
                         @NotNull @Positive @Max(InputRules.MAX_AMOUNT) Long amount,
                         @NotBlank @Pattern(regexp = InputRules.PG_CURRENCIES,
                                 message = "must be a currency the PG accepts: " + InputRules.PG_CURRENCIES)
                         String currency,
                         @NotBlank @Size(max = 200) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS,
                                 message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String billingKey,
                         LocalDate firstPeriod) {
    }

    record SubscriptionView(UUID subscriptionId, String plan, long amount, String currency, LocalDate nextPeriod,
                            String status, Instant createdAt) {

        static SubscriptionView of(Subscription s) {
            return new SubscriptionView(s.id().value(), s.plan(), s.money().amount(), s.money().currency(),
                    s.nextPeriod(), s.status().name(), s.createdAt());
        }
    }

    @ApiResponse(responseCode = "201", description = "The subscription; Location names it",
            content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 400, codes = "INVALID_AMOUNT")
    @PostMapping
    ResponseEntity<?> create(Caller member, @Valid @RequestBody CreateRequest request) {
        Money money;
        try {
            money = new Money(request.amount(), request.currency());
        } catch (IllegalArgumentException e) {
            return Problems.response(HttpStatus.BAD_REQUEST, "INVALID_AMOUNT", e.getMessage());
        }
        Subscription created = createSubscription.create(new CreateSubscription.Command(new MemberId(member.subject()),
                request.plan(), money, request.billingKey(), Optional.ofNullable(request.firstPeriod())));
        return ResponseEntity.created(URI.create("/api/subscriptions/" + created.id())).body(SubscriptionView.of(created));
    }

    @ProblemResponse(status = 404, codes = "SUBSCRIPTION_NOT_FOUND")
    @GetMapping("/{subscriptionId}")
    ResponseEntity<?> get(@PathVariable UUID subscriptionId, Caller member) {
        return subscriptions.findById(new SubscriptionId(subscriptionId))
                .filter(s -> s.memberId().equals(new MemberId(member.subject())))
                .<ResponseEntity<?>>map(s -> ResponseEntity.ok(SubscriptionView.of(s)))
                .orElseGet(() -> notFound(subscriptionId));
    }

    /**
     * The member ends the subscription: no period of it is charged any more, dunning included; a charge at the PG at
     * this moment settles as it will (docs/renewals.md, "Cancel"). Cancelling again answers the same.
     */
    @ApiResponse(responseCode = "200", description = "The subscription, CANCELED",
            content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 404, codes = "SUBSCRIPTION_NOT_FOUND")
    @PostMapping("/{subscriptionId}/cancel")
    ResponseEntity<?> cancelSubscription(@PathVariable UUID subscriptionId, Caller member) {
        return cancelSubscription.cancel(new SubscriptionId(subscriptionId), new MemberId(member.subject()))
                .<ResponseEntity<?>>map(s -> ResponseEntity.ok(SubscriptionView.of(s)))
                .orElseGet(() -> notFound(subscriptionId));
    }

    private static ResponseEntity<?> notFound(UUID subscriptionId) {
        return Problems.response(HttpStatus.NOT_FOUND, "SUBSCRIPTION_NOT_FOUND", "No subscription " + subscriptionId);
    }
}

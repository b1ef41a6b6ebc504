package dev.payments.order.adapter.in.web;

import dev.payments.contracts.Money;
import dev.payments.order.application.GetOrder;
import dev.payments.order.application.PlaceOrder;
import dev.payments.order.domain.InvalidOrderException;
import dev.payments.order.domain.MemberId;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.Problems;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import java.net.URI;
import java.util.UUID;

@RestController
@RequestMapping("/api/orders")
class OrderController {

    private final PlaceOrder placeOrder;
    private final GetOrder getOrder;

    OrderController(PlaceOrder placeOrder, GetOrder getOrder) {
        this.placeOrder = placeOrder;
        this.getOrder = getOrder;
    }

    @ApiResponse(responseCode = "201", description = "The order, PENDING until paid; Location names it",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = OrderResponse.class)))
    @PostMapping
    ResponseEntity<OrderResponse> place(Caller member, @Valid @RequestBody PlaceOrderRequest request) {
        Order order;
        try {
            order = placeOrder.place(new PlaceOrder.Command(new MemberId(member.subject()), price(request),
                    request.orderName()));
        } catch (InvalidOrderException invalid) {
            return invalid(invalid);
        }
        URI location = ServletUriComponentsBuilder.fromCurrentRequestUri().path("/{id}")
                .buildAndExpand(order.id().value()).toUri();
        return ResponseEntity.created(location).body(OrderResponse.of(order));
    }

    /** Another member's order answers 404, like one that does not exist. */
    @ProblemResponse(status = 404, codes = "ORDER_NOT_FOUND")
    @GetMapping("/{orderId}")
    ResponseEntity<OrderResponse> get(@PathVariable UUID orderId, Caller member) {
        MemberId owner;
        try {
            owner = new MemberId(member.subject());
        } catch (InvalidOrderException invalid) {
            return invalid(invalid);
        }
        return getOrder.get(new OrderId(orderId), owner).map(OrderResponse::of).map(ResponseEntity::ok)
                .orElseGet(() -> Problems.refusal(HttpStatus.NOT_FOUND, "ORDER_NOT_FOUND", "No order " + orderId));
    }

    /** The house's Money rule refuses a price like the order's own rules refuse a name: the caller's bad input. */
    private static Money price(PlaceOrderRequest request) {
        try {
            return new Money(request.amount(), request.currency());
        } catch (IllegalArgumentException notMoney) {
            throw new InvalidOrderException(notMoney.getMessage());
        }
    }

    /** A value the domain refuses (an amount, a currency, a name, the token's subject) is the caller's bad input. */
    private static ResponseEntity<OrderResponse> invalid(InvalidOrderException invalid) {
        return Problems.refusal(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED, invalid.getMessage());
    }
}

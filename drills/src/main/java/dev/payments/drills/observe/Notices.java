package dev.payments.drills.observe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.localstack.http.Http;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.stack.Target;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What notification-service holds for the drill's orders: each kind of notice once per order, and delivered. A second
 * row of one kind is a notice the customer got twice. What this cannot see: a replica killed after handing a notice to
 * the channel and before recording it sends it again once the claim lease ends (at-least-once towards the channel).
 *
 * @param orders     orders asked about (those whose payment the PG approved)
 * @param notices    notifications found for them
 * @param duplicated order/kind pairs with more than one notification
 * @param unsent     notifications not SENT
 * @param retried    SENT notifications that took more than one attempt (the channel refused the earlier ones)
 * @param missing    orders with no notification at all
 * @param unreadable orders whose notifications could not be read (no 200; counted in {@code missing} too)
 * @param examples   up to 10 order/kind pairs that failed one of the above
 */
public record Notices(int orders, int notices, int duplicated, int unsent, int retried, int missing,
                      int unreadable, List<String> examples) {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    public boolean exactlyOnce() {
        return duplicated == 0 && unsent == 0 && missing == 0;
    }

    /**
     * The order's notifications (a JSON array), asked as its member: notification-service shows a member only their
     * own (with no token or another member's it answers 401 or an empty list). Null when it does not answer 200.
     */
    public static JsonNode of(Http http, Target target, PreparedOrder order) {
        Http.Response r = http.get(target.endpoints().notification() + "/api/notifications?orderId=" + order.orderId(),
                Http.bearer(target.tokens().member(order.memberId())), TIMEOUT);
        return r.ok() ? r.json() : null;
    }

    /** @param orders the orders to check (e.g. those whose payment the PG approved) */
    public static Notices of(Http http, Target target, List<PreparedOrder> orders) {
        int notices = 0;
        int duplicated = 0;
        int unsent = 0;
        int retried = 0;
        int missing = 0;
        int unreadable = 0;
        List<String> examples = new ArrayList<>();
        for (PreparedOrder order : orders) {
            String orderId = order.orderId();
            JsonNode list = of(http, target, order);
            if (list == null || !list.isArray() || list.isEmpty()) {
                missing++;
                unreadable += list == null ? 1 : 0;
                example(examples, orderId + " (none" + (list != null ? "" : ", no answer") + ")");
                continue;
            }
            Map<String, Integer> kinds = new HashMap<>();
            for (JsonNode n : list) {
                notices++;
                String kind = n.path("kind").asText();
                kinds.merge(kind, 1, Integer::sum);
                if (!"SENT".equals(n.path("status").asText())) {
                    unsent++;
                    example(examples, orderId + "/" + kind + " " + n.path("status").asText());
                } else if (n.path("attempts").asInt(1) > 1) {
                    retried++;
                    example(examples, orderId + "/" + kind + " sent on attempt " + n.path("attempts").asInt());
                }
            }
            for (Map.Entry<String, Integer> kind : kinds.entrySet()) {
                if (kind.getValue() > 1) {
                    duplicated++;
                    example(examples, orderId + "/" + kind.getKey() + " x" + kind.getValue());
                }
            }
        }
        return new Notices(orders.size(), notices, duplicated, unsent, retried, missing, unreadable,
                List.copyOf(examples));
    }

    private static void example(List<String> examples, String text) {
        if (examples.size() < 10) {
            examples.add(text);
        }
    }
}

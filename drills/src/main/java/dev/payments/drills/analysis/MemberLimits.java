package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Whether each member got at most the per-member limit, across every replica, from the answers the clients saw.
 * payment-service's bucket holds {@code perMinute} tokens and gets {@code perMinute} more every minute after the member's
 * first request; so by the time the {@code i}-th accepted answer of a member arrived, {@code i <= perMinute x (1 +
 * whole minutes since that member's first request was sent)} — measured from the client's clock, which can only make
 * the bound looser, never fail a correct limit. Every answer that is not a 429 or a 503 took a token (a 404 too, and
 * each 404 the client retried). A 503 is left out with the attempts that got no answer: {@code PG_UNAVAILABLE} is
 * refused at admission, before the bucket, and takes none (ConfirmPayment, since bd31108), and {@code DB_UNAVAILABLE}
 * may or may not have reached it; leaving out an answer can only loosen the bound.
 *
 * @param members          members that sent anything
 * @param limitedMembers   members that got at least one 429
 * @param worstMember      the member with the most accepted answers in one 60 s window
 * @param maxInAnyMinute   that member's count: up to 2 x perMinute is possible (a full bucket, then its refill)
 * @param violations       members whose accepted answers ran ahead of the bound, with the first answer that did
 */
public record MemberLimits(int perMinute, int members, int limitedMembers, long accepted, long limited,
                           String worstMember, int maxInAnyMinute, Map<String, String> violations) {

    private static final long MINUTE = 60_000_000_000L;

    public boolean holds() {
        return violations.isEmpty();
    }

    public static MemberLimits of(List<Attempt> attempts, int perMinute) {
        Map<String, List<Attempt>> byMember = attempts.stream()
                .collect(Collectors.groupingBy(a -> a.order().memberId(), TreeMap::new, Collectors.toList()));
        Map<String, String> violations = new TreeMap<>();
        int limitedMembers = 0;
        long accepted = 0;
        long limited = 0;
        String worst = null;
        int worstCount = 0;
        for (Map.Entry<String, List<Attempt>> member : byMember.entrySet()) {
            List<Attempt> all = member.getValue();
            long firstSent = all.stream().mapToLong(Attempt::intendedNanos).min().orElse(0);
            List<Long> acceptedAt = new ArrayList<>();
            boolean anyLimited = false;
            for (Attempt a : all.stream().sorted(Comparator.comparingLong(Attempt::endNanos)).toList()) {
                for (int retry = 0; retry < a.notFoundRetries(); retry++) {
                    acceptedAt.add(a.endNanos());
                }
                if (a.status() == 429) {
                    anyLimited = true;
                    limited++;
                } else if (a.status() != 0 && a.status() != 503) {
                    acceptedAt.add(a.endNanos());
                }
            }
            limitedMembers += anyLimited ? 1 : 0;
            accepted += acceptedAt.size();
            acceptedAt.sort(Long::compare);
            for (int i = 0; i < acceptedAt.size(); i++) {
                long allowed = perMinute * (1 + (acceptedAt.get(i) - firstSent) / MINUTE);
                if (i + 1 > allowed) {
                    violations.put(member.getKey(), "accepted answer " + (i + 1) + " arrived "
                            + String.format(java.util.Locale.ROOT, "%.1f", (acceptedAt.get(i) - firstSent) / 1e9)
                            + " s after the member's first request; at most " + allowed + " by then");
                    break;
                }
            }
            int window = maxInWindow(acceptedAt);
            if (window > worstCount) {
                worstCount = window;
                worst = member.getKey();
            }
        }
        return new MemberLimits(perMinute, byMember.size(), limitedMembers, accepted, limited, worst, worstCount,
                violations);
    }

    private static int maxInWindow(List<Long> sorted) {
        int best = 0;
        int start = 0;
        for (int end = 0; end < sorted.size(); end++) {
            while (sorted.get(end) - sorted.get(start) >= MINUTE) {
                start++;
            }
            best = Math.max(best, end - start + 1);
        }
        return best;
    }
}

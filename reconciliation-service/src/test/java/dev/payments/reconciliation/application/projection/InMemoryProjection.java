package dev.payments.reconciliation.application.projection;

import dev.payments.reconciliation.application.queries.ShowOrder;
import dev.payments.reconciliation.application.queries.ShowPayment;
import dev.payments.reconciliation.application.queries.SummarizeBooks;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.ProjectedEvent;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The storage ports in memory, with the JDBC adapters' contract (insert refuses a duplicate), and the use cases. */
final class InMemoryProjection {

    final Payments payments = new Payments();
    final Orders orders = new Orders();
    final History history = new History();
    final Refunds refunds = new Refunds();
    final ProjectEvent projectEvent;
    final ShowPayment showPayment = new ShowPayment(payments, refunds, history);
    final ShowOrder showOrder = new ShowOrder(orders, payments, history);
    final SummarizeBooks summarizeBooks = new SummarizeBooks(payments, orders);

    InMemoryProjection(Clock clock) {
        projectEvent = new ProjectEvent(payments, orders, history, clock, refunds);
    }

    static final class Refunds implements RefundViews {

        private final Map<java.util.UUID, RefundView> views = new LinkedHashMap<>();

        @Override
        public Optional<RefundView> find(java.util.UUID refundId) {
            return Optional.ofNullable(views.get(refundId));
        }

        @Override
        public Optional<RefundView> lock(java.util.UUID refundId) {
            return find(refundId);
        }

        @Override
        public void insert(RefundView view) {
            if (views.putIfAbsent(view.refundId(), view) != null) {
                throw new IllegalStateException("duplicate refund view " + view.refundId());
            }
        }

        @Override
        public void update(RefundView view) {
            views.put(view.refundId(), view);
        }

        @Override
        public java.util.List<RefundView> ofPayment(PaymentId paymentId) {
            return views.values().stream().filter(v -> v.paymentId().equals(paymentId)).toList();
        }
    }

    static final class Payments implements PaymentViews {

        private final Map<PaymentId, PaymentView> views = new LinkedHashMap<>();

        @Override
        public Optional<PaymentView> find(PaymentId paymentId) {
            return Optional.ofNullable(views.get(paymentId));
        }

        @Override
        public Optional<PaymentView> lock(PaymentId paymentId) {
            return find(paymentId);
        }

        @Override
        public void insert(PaymentView view) {
            if (views.putIfAbsent(view.paymentId(), view) != null) {
                throw new IllegalStateException("duplicate payment view " + view.paymentId());
            }
        }

        @Override
        public void update(PaymentView view) {
            if (views.replace(view.paymentId(), view) == null) {
                throw new IllegalStateException("no payment view " + view.paymentId());
            }
        }

        @Override
        public List<PaymentView> byOrder(OrderId orderId) {
            return views.values().stream().filter(p -> p.orderId().equals(orderId)).toList();
        }

        @Override
        public Map<PaymentStatus, Long> countByStatus() {
            Map<PaymentStatus, Long> counts = new EnumMap<>(PaymentStatus.class);
            views.values().forEach(p -> counts.merge(p.status(), 1L, Long::sum));
            return counts;
        }

        @Override
        public long conflicts() {
            return views.values().stream().mapToLong(view -> view.bookkeeping().conflicts()).sum();
        }
    }

    static final class Orders implements OrderViews {

        private final Map<OrderId, OrderView> views = new LinkedHashMap<>();

        @Override
        public Optional<OrderView> find(OrderId orderId) {
            return Optional.ofNullable(views.get(orderId));
        }

        @Override
        public Optional<OrderView> lock(OrderId orderId) {
            return find(orderId);
        }

        @Override
        public void insert(OrderView view) {
            if (views.putIfAbsent(view.orderId(), view) != null) {
                throw new IllegalStateException("duplicate order view " + view.orderId());
            }
        }

        @Override
        public void update(OrderView view) {
            if (views.replace(view.orderId(), view) == null) {
                throw new IllegalStateException("no order view " + view.orderId());
            }
        }

        @Override
        public Map<OrderStatus, Long> countByStatus() {
            Map<OrderStatus, Long> counts = new EnumMap<>(OrderStatus.class);
            views.values().forEach(o -> counts.merge(o.status(), 1L, Long::sum));
            return counts;
        }

        @Override
        public long conflicts() {
            return views.values().stream().mapToLong(view -> view.bookkeeping().conflicts()).sum();
        }
    }

    static final class History implements EventHistory {

        private final List<ProjectedEvent> events = new ArrayList<>();

        @Override
        public void append(ProjectedEvent event) {
            if (events.stream().anyMatch(e -> e.event().eventId().equals(event.event().eventId()))) {
                throw new IllegalStateException("event " + event.event().eventId() + " projected twice");
            }
            events.add(event);
        }

        @Override
        public List<ProjectedEvent> ofPayment(PaymentId paymentId) {
            return events.stream()
                    .filter(e -> e.aggregate() == ProjectedEvent.Aggregate.PAYMENT && paymentId.equals(e.paymentId()))
                    .sorted(Comparator.comparing(e -> e.event().occurredAt())).toList();
        }

        @Override
        public List<ProjectedEvent> ofOrder(OrderId orderId) {
            return events.stream().filter(e -> orderId.equals(e.orderId()))
                    .sorted(Comparator.comparing(e -> e.event().occurredAt())).toList();
        }

        List<ProjectedEvent> all() {
            return List.copyOf(events);
        }
    }
}

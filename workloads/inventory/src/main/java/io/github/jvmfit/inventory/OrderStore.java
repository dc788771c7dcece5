package io.github.jvmfit.inventory;

import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/** Orders and their lines: the joins seed 002's list endpoints stand for. */
@Repository
class OrderStore {
    private static final String SUMMARY = """
            SELECT o.id, o.customer_id, c.name AS customer_name, o.created_at, o.status,
                   count(l.id) AS line_count, coalesce(sum(l.quantity * l.unit_price_cents), 0) AS total_cents
            FROM orders o
            JOIN customers c ON c.id = o.customer_id
            LEFT JOIN order_lines l ON l.order_id = o.id
            """;
    private static final String LINES = """
            SELECT l.id, l.order_id, l.product_id, p.sku, p.name AS product_name, l.quantity, l.unit_price_cents
            FROM order_lines l
            JOIN products p ON p.id = l.product_id
            """;

    private final JdbcClient jdbc;
    private final CustomerStore customers;

    OrderStore(JdbcClient jdbc, CustomerStore customers) {
        this.jdbc = jdbc;
        this.customers = customers;
    }

    Page<OrderSummary> list(PageRequest p) {
        List<OrderSummary> items = jdbc.sql(SUMMARY + """
                WHERE o.id IN (SELECT id FROM orders ORDER BY id LIMIT :limit OFFSET :offset)
                GROUP BY o.id, c.name ORDER BY o.id""")
                .param("limit", p.size()).param("offset", p.offset()).query(OrderSummary.class).list();
        return new Page<>(p.page(), p.size(), count("SELECT count(*) FROM orders"), items);
    }

    Page<OrderSummary> listOfCustomer(long customerId, PageRequest p) {
        if (customers.find(customerId).isEmpty()) {
            throw new NotFoundException("no customer " + customerId);
        }
        List<OrderSummary> items = jdbc.sql(SUMMARY + """
                WHERE o.customer_id = :customer
                GROUP BY o.id, c.name ORDER BY o.id LIMIT :limit OFFSET :offset""")
                .param("customer", customerId).param("limit", p.size()).param("offset", p.offset())
                .query(OrderSummary.class).list();
        long total = jdbc.sql("SELECT count(*) FROM orders WHERE customer_id = :customer")
                .param("customer", customerId).query(Long.class).single();
        return new Page<>(p.page(), p.size(), total, items);
    }

    Page<OrderLine> lines(PageRequest p) {
        List<OrderLine> items = jdbc.sql(LINES + "ORDER BY l.id LIMIT :limit OFFSET :offset")
                .param("limit", p.size()).param("offset", p.offset()).query(OrderLine.class).list();
        return new Page<>(p.page(), p.size(), count("SELECT count(*) FROM order_lines"), items);
    }

    @Transactional(readOnly = true)
    Optional<OrderDetail> find(long id) {
        record Head(long id, long customerId, java.time.OffsetDateTime createdAt, String status) {}
        Optional<Head> head = jdbc.sql("SELECT id, customer_id, created_at, status FROM orders WHERE id = :id")
                .param("id", id).query(Head.class).optional();
        if (head.isEmpty()) {
            return Optional.empty();
        }
        Head h = head.get();
        List<OrderLine> lines = jdbc.sql(LINES + "WHERE l.order_id = :id ORDER BY l.id")
                .param("id", id).query(OrderLine.class).list();
        long total = lines.stream().mapToLong(l -> l.quantity() * l.unitPriceCents()).sum();
        Customer c = customers.find(h.customerId()).orElseThrow();
        return Optional.of(new OrderDetail(h.id(), c, h.createdAt(), h.status(), lines, total));
    }

    /**
     * Creates an order at today's prices and takes the quantities from stock,
     * all or nothing. Products are locked in id order so that concurrent
     * orders over the same products cannot deadlock.
     */
    @Transactional
    long create(NewOrder order) {
        if (customers.find(order.customerId()).isEmpty()) {
            throw new NotFoundException("no customer " + order.customerId());
        }
        List<NewOrder.Line> sorted = order.lines().stream()
                .sorted(java.util.Comparator.comparing(NewOrder.Line::productId)).toList();
        long orderId = jdbc.sql("INSERT INTO orders (customer_id, status) VALUES (:c, 'NEW') RETURNING id")
                .param("c", order.customerId()).query(Long.class).single();
        for (NewOrder.Line l : sorted) {
            record Stock(long priceCents, int stock) {}
            Stock s = jdbc.sql("SELECT price_cents, stock FROM products WHERE id = :id FOR UPDATE")
                    .param("id", l.productId()).query(Stock.class).optional()
                    .orElseThrow(() -> new NotFoundException("no product " + l.productId()));
            if (s.stock() < l.quantity()) {
                throw new ConflictException("product " + l.productId() + " has " + s.stock() + " in stock, "
                        + l.quantity() + " ordered");
            }
            jdbc.sql("UPDATE products SET stock = stock - :q WHERE id = :id")
                    .param("q", l.quantity()).param("id", l.productId()).update();
            jdbc.sql("INSERT INTO order_lines (order_id, product_id, quantity, unit_price_cents) VALUES (:o, :p, :q, :price)")
                    .param("o", orderId).param("p", l.productId()).param("q", l.quantity()).param("price", s.priceCents())
                    .update();
        }
        return orderId;
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }
}

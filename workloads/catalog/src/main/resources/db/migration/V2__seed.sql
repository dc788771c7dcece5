-- Seed rows, generated so they are deterministic and cost no data file:
-- 40 categories, 200 suppliers, 5,000 products, 20,000 reviews,
-- 3,000 orders with 9,000 lines. Stock starts high (5,000-9,999) so a
-- load test's orders do not run products out.
INSERT INTO categories (name, description)
SELECT 'Category ' || X, 'Everything in category ' || X FROM SYSTEM_RANGE(1, 40);

INSERT INTO suppliers (name, email, country)
SELECT 'Supplier ' || X, 'supplier' || X || '@example.com',
       ARRAY['JP', 'DE', 'US', 'FR', 'KR', 'BR', 'IN', 'GB'][1 + MOD(X, 8)]
FROM SYSTEM_RANGE(1, 200);

INSERT INTO products (sku, name, description, price_cents, stock, category_id, supplier_id, updated_at)
SELECT 'SKU-' || LPAD(CAST(X AS VARCHAR), 5, '0'),
       ARRAY['Red', 'Blue', 'Green', 'Black', 'White'][1 + MOD(X, 5)] || ' '
           || ARRAY['kettle', 'lamp', 'chair', 'desk', 'mug', 'shelf', 'clock', 'rug'][1 + MOD(X / 5, 8)] || ' ' || X,
       'A sample product, number ' || X || ', for load tests.',
       100 + MOD(X * 37, 99900), 5000 + MOD(X * 13, 5000),
       1 + MOD(X, 40), 1 + MOD(X * 7, 200),
       TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00' + X * INTERVAL '1' MINUTE
FROM SYSTEM_RANGE(1, 5000);

INSERT INTO reviews (product_id, author, rating, comment, created_at)
SELECT 1 + MOD(X * 31, 5000), 'reviewer' || MOD(X, 997), 1 + MOD(X * 7 + X / 3, 5),
       'Review ' || X || ': works as described.',
       TIMESTAMP WITH TIME ZONE '2026-02-01 00:00:00+00' + X * INTERVAL '1' MINUTE
FROM SYSTEM_RANGE(1, 20000);

INSERT INTO orders (customer_email, status, created_at, total_cents)
SELECT 'customer' || MOD(X, 500) || '@example.com', ARRAY['NEW', 'PAID', 'SHIPPED', 'CANCELLED'][1 + MOD(X, 4)],
       TIMESTAMP WITH TIME ZONE '2026-03-01 00:00:00+00' + X * INTERVAL '1' MINUTE, 0
FROM SYSTEM_RANGE(1, 3000);

INSERT INTO order_lines (order_id, product_id, quantity, unit_price_cents)
SELECT o.X, p.id, 1 + MOD(o.X + l.X, 5), p.price_cents
FROM SYSTEM_RANGE(1, 3000) o
CROSS JOIN SYSTEM_RANGE(1, 3) l
JOIN products p ON p.id = 1 + MOD(o.X * 31 + l.X * 97, 5000);

UPDATE orders o SET total_cents =
    (SELECT SUM(quantity * unit_price_cents) FROM order_lines WHERE order_id = o.id);

-- Seed data, generated in SQL so it is deterministic and costs no file:
-- 1000 products, 1000 customers, 3000 orders, 9000 order lines.
INSERT INTO products (sku, name, price_cents, stock)
SELECT 'SKU-' || lpad(g::text, 5, '0'), 'Product ' || g, 100 + (g * 37) % 9900, 50 + (g * 13) % 450
FROM generate_series(1, 1000) AS g;

INSERT INTO customers (name, email, city)
SELECT 'Customer ' || g, 'customer' || g || '@example.com',
       (ARRAY['Tokyo', 'Osaka', 'Nagoya', 'Sapporo', 'Fukuoka'])[1 + g % 5]
FROM generate_series(1, 1000) AS g;

INSERT INTO orders (customer_id, created_at, status)
SELECT 1 + (g * 7) % 1000, TIMESTAMPTZ '2021-08-23 09:00:00+09' + g * INTERVAL '1 minute',
       (ARRAY['NEW', 'PAID', 'SHIPPED'])[1 + g % 3]
FROM generate_series(1, 3000) AS g;

INSERT INTO order_lines (order_id, product_id, quantity, unit_price_cents)
SELECT o, p, 1 + (o + l) % 5, 100 + (p * 37) % 9900
FROM generate_series(1, 3000) AS o,
     generate_series(1, 3) AS l,
     LATERAL (SELECT 1 + (o * 31 + l * 97) % 1000 AS p) AS pick;

ANALYZE;

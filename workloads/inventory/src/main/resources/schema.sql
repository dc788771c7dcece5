-- Dropped and made again at every start: the database is throwaway.
DROP TABLE IF EXISTS order_lines;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS customers;
DROP TABLE IF EXISTS products;

CREATE TABLE products (
    id          BIGSERIAL PRIMARY KEY,
    sku         VARCHAR(32)    NOT NULL UNIQUE,
    name        VARCHAR(200)   NOT NULL,
    price_cents BIGINT         NOT NULL CHECK (price_cents >= 0),
    stock       INTEGER        NOT NULL CHECK (stock >= 0)
);

CREATE TABLE customers (
    id    BIGSERIAL PRIMARY KEY,
    name  VARCHAR(200) NOT NULL,
    email VARCHAR(200) NOT NULL UNIQUE,
    city  VARCHAR(100) NOT NULL
);

CREATE TABLE orders (
    id          BIGSERIAL PRIMARY KEY,
    customer_id BIGINT      NOT NULL REFERENCES customers (id),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    status      VARCHAR(16) NOT NULL
);
CREATE INDEX orders_customer ON orders (customer_id);

CREATE TABLE order_lines (
    id               BIGSERIAL PRIMARY KEY,
    order_id         BIGINT  NOT NULL REFERENCES orders (id),
    product_id       BIGINT  NOT NULL REFERENCES products (id),
    quantity         INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents BIGINT  NOT NULL
);
CREATE INDEX order_lines_order ON order_lines (order_id);
CREATE INDEX order_lines_product ON order_lines (product_id);

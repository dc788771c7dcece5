package io.github.jvmfit.inventory;

import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class ProductStore {
    private final JdbcClient jdbc;

    ProductStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Page<Product> list(PageRequest p) {
        List<Product> items = jdbc.sql("SELECT id, sku, name, price_cents, stock FROM products ORDER BY id LIMIT :limit OFFSET :offset")
                .param("limit", p.size()).param("offset", p.offset()).query(Product.class).list();
        long total = jdbc.sql("SELECT count(*) FROM products").query(Long.class).single();
        return new Page<>(p.page(), p.size(), total, items);
    }

    Optional<Product> find(long id) {
        return jdbc.sql("SELECT id, sku, name, price_cents, stock FROM products WHERE id = :id")
                .param("id", id).query(Product.class).optional();
    }
}

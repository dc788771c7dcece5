package io.github.jvmfit.inventory;

import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class CustomerStore {
    private final JdbcClient jdbc;

    CustomerStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Page<Customer> list(PageRequest p) {
        List<Customer> items = jdbc.sql("SELECT id, name, email, city FROM customers ORDER BY id LIMIT :limit OFFSET :offset")
                .param("limit", p.size()).param("offset", p.offset()).query(Customer.class).list();
        long total = jdbc.sql("SELECT count(*) FROM customers").query(Long.class).single();
        return new Page<>(p.page(), p.size(), total, items);
    }

    Optional<Customer> find(long id) {
        return jdbc.sql("SELECT id, name, email, city FROM customers WHERE id = :id")
                .param("id", id).query(Customer.class).optional();
    }
}

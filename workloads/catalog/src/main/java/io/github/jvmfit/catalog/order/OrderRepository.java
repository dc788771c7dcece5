package io.github.jvmfit.catalog.order;

import java.util.Optional;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;

public interface OrderRepository extends JpaRepository<CustomerOrder, Long> {
    Page<CustomerOrder> findByStatus(OrderStatus status, Pageable page);

    Page<CustomerOrder> findByCustomerEmailIgnoreCase(String email, Pageable page);

    /** One order with its lines and their products in one query. */
    @EntityGraph(attributePaths = {"lines", "lines.product"})
    Optional<CustomerOrder> findWithLinesById(long id);
}

package io.github.jvmfit.catalog.product;

import java.util.Optional;

import jakarta.persistence.LockModeType;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.domain.Specification;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.JpaSpecificationExecutor;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface ProductRepository extends JpaRepository<Product, Long>, JpaSpecificationExecutor<Product> {
    /** Lists fetch category and supplier in the same query: no query per row. */
    @Override
    @EntityGraph(attributePaths = {"category", "supplier"})
    Page<Product> findAll(Specification<Product> spec, Pageable page);

    @EntityGraph(attributePaths = {"category", "supplier"})
    Optional<Product> findWithRefsById(long id);

    Optional<Product> findBySku(String sku);

    /** For stock changes: concurrent orders of one product queue on its row instead of losing an update. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    Optional<Product> findForUpdateById(long id);

    /** Reviews by entity name, so this package needs no import of the review package. */
    @Query("select coalesce(avg(r.rating), 0) as average, count(r) as count from Review r where r.product.id = :id")
    RatingRow ratingOf(@Param("id") long id);

    interface RatingRow {
        double getAverage();

        long getCount();
    }
}

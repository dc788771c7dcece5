package io.github.jvmfit.catalog.review;

import java.util.List;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface ReviewRepository extends JpaRepository<Review, Long> {
    Page<Review> findByProductId(long productId, Pageable page);

    /** Products by average rating, best first, among those with at least minReviews reviews. */
    @Query("""
            select r.product.id as productId, r.product.name as name, avg(r.rating) as average, count(r) as count
            from Review r
            group by r.product.id, r.product.name
            having count(r) >= :minReviews
            order by avg(r.rating) desc, count(r) desc, r.product.id
            """)
    List<TopRow> topRated(@Param("minReviews") long minReviews, Pageable page);

    interface TopRow {
        long getProductId();

        String getName();

        double getAverage();

        long getCount();
    }
}

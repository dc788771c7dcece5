package io.github.jvmfit.catalog.review;

import io.github.jvmfit.catalog.product.ProductService;
import io.github.jvmfit.catalog.review.ReviewDtos.NewReview;
import io.github.jvmfit.catalog.review.ReviewDtos.ReviewView;
import io.github.jvmfit.catalog.web.NotFoundException;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class ReviewService {
    private final ReviewRepository reviews;
    private final ProductService products;

    ReviewService(ReviewRepository reviews, ProductService products) {
        this.reviews = reviews;
        this.products = products;
    }

    public Page<ReviewView> ofProduct(long productId, Pageable page) {
        products.entity(productId); // 404 for an unknown product, not an empty page
        return reviews.findByProductId(productId, page).map(ReviewView::of);
    }

    public ReviewView get(long id) {
        return ReviewView.of(reviews.findById(id).orElseThrow(() -> new NotFoundException("review", id)));
    }

    @Transactional
    public ReviewView add(long productId, NewReview r) {
        Review saved = reviews.save(new Review(products.entity(productId), r.author().strip(), r.rating(), r.comment()));
        return ReviewView.of(saved);
    }
}

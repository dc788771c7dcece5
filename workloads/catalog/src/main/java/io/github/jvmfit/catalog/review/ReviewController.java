package io.github.jvmfit.catalog.review;

import java.net.URI;
import java.util.List;
import java.util.Set;

import io.github.jvmfit.catalog.review.ReviewDtos.NewReview;
import io.github.jvmfit.catalog.review.ReviewDtos.ReviewView;
import io.github.jvmfit.catalog.review.ReviewDtos.TopRated;
import io.github.jvmfit.catalog.web.PageParams;
import jakarta.validation.Valid;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.web.PageableDefault;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReviewController {
    private static final Set<String> SORTABLE = Set.of("id", "rating", "createdAt");
    private final ReviewService service;
    private final TopRatedBoard board;

    ReviewController(ReviewService service, TopRatedBoard board) {
        this.service = service;
        this.board = board;
    }

    @GetMapping("/api/products/{productId}/reviews")
    Page<ReviewView> ofProduct(@PathVariable long productId,
            @PageableDefault(sort = "createdAt", direction = Sort.Direction.DESC) Pageable page) {
        return service.ofProduct(productId, PageParams.checked(page, SORTABLE));
    }

    @PostMapping("/api/products/{productId}/reviews")
    ResponseEntity<ReviewView> add(@PathVariable long productId, @Valid @RequestBody NewReview body) {
        ReviewView r = service.add(productId, body);
        return ResponseEntity.created(URI.create("/api/reviews/" + r.id())).body(r);
    }

    @GetMapping("/api/reviews/{id}")
    ReviewView get(@PathVariable long id) {
        return service.get(id);
    }

    /** Recomputed by a scheduled job, not per request. */
    @GetMapping("/api/reviews/top-rated")
    List<TopRated> topRated() {
        return board.current();
    }
}

package io.github.jvmfit.catalog.review;

import java.time.Instant;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public final class ReviewDtos {
    private ReviewDtos() {}

    public record NewReview(
            @NotBlank @Size(max = 80) String author,
            @NotNull @Min(1) @Max(5) Integer rating,
            @Size(max = 2000) String comment) {}

    public record ReviewView(long id, long productId, String author, int rating, String comment, Instant createdAt) {
        static ReviewView of(Review r) {
            return new ReviewView(r.getId(), r.getProduct().getId(), r.getAuthor(), r.getRating(), r.getComment(),
                    r.getCreatedAt());
        }
    }

    public record TopRated(long productId, String name, double average, long count) {}
}

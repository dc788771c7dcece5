package io.github.jvmfit.catalog.review;

import java.util.List;

import io.github.jvmfit.catalog.review.ReviewDtos.TopRated;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.domain.PageRequest;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The top-rated list aggregates every review, too costly per request, so a
 * scheduled job recomputes it (every catalog.top-rated-refresh, 30 s by
 * default) and requests read the last result. The first one is computed
 * before the app reports ready, so no request sees an empty board.
 */
@Component
class TopRatedBoard {
    private static final Logger log = LoggerFactory.getLogger(TopRatedBoard.class);
    private static final int SIZE = 20;
    private static final long MIN_REVIEWS = 3;

    private final ReviewRepository reviews;
    private volatile List<TopRated> current = List.of();

    TopRatedBoard(ReviewRepository reviews) {
        this.reviews = reviews;
    }

    List<TopRated> current() {
        return current;
    }

    @EventListener(ApplicationReadyEvent.class)
    @Scheduled(initialDelayString = "${catalog.top-rated-refresh:30s}", fixedDelayString = "${catalog.top-rated-refresh:30s}")
    void refresh() {
        current = reviews.topRated(MIN_REVIEWS, PageRequest.of(0, SIZE)).stream()
                .map(r -> new TopRated(r.getProductId(), r.getName(), Math.round(r.getAverage() * 100) / 100.0, r.getCount()))
                .toList();
        log.debug("top-rated board: {} products", current.size());
    }
}

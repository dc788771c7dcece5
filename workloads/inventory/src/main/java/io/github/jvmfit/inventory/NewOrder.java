package io.github.jvmfit.inventory;

import java.util.List;

/** The body of POST /api/orders. */
record NewOrder(Long customerId, List<Line> lines) {
    record Line(Long productId, Integer quantity) {}

    /** At most this many lines, so one request cannot hold a connection for long. */
    static final int MAX_LINES = 50;

    void validate() {
        if (customerId == null) {
            throw new BadRequestException("customerId is required");
        }
        if (lines == null || lines.isEmpty()) {
            throw new BadRequestException("lines must hold at least one {productId, quantity}");
        }
        if (lines.size() > MAX_LINES) {
            throw new BadRequestException("at most " + MAX_LINES + " lines per order, got " + lines.size());
        }
        for (Line l : lines) {
            if (l == null || l.productId() == null || l.quantity() == null || l.quantity() < 1) {
                throw new BadRequestException("every line needs a productId and a quantity of 1 or more");
            }
        }
    }
}

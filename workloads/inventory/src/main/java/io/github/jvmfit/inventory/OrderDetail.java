package io.github.jvmfit.inventory;

import java.time.OffsetDateTime;
import java.util.List;

/** One order with its customer and every line. */
record OrderDetail(long id, Customer customer, OffsetDateTime createdAt, String status, List<OrderLine> lines,
        long totalCents) {}

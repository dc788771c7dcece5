package io.github.jvmfit.inventory;

import java.time.OffsetDateTime;

/** An order in a list: joined with its customer, with its lines summed. */
record OrderSummary(long id, long customerId, String customerName, OffsetDateTime createdAt, String status,
        int lineCount, long totalCents) {}

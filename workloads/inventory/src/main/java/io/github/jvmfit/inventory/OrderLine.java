package io.github.jvmfit.inventory;

/** One line of an order, joined with its product. */
record OrderLine(long id, long orderId, long productId, String sku, String productName, int quantity,
        long unitPriceCents) {}

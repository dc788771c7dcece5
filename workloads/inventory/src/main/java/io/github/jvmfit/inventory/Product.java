package io.github.jvmfit.inventory;

record Product(long id, String sku, String name, long priceCents, int stock) {}

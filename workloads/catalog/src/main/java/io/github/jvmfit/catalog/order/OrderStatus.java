package io.github.jvmfit.catalog.order;

public enum OrderStatus {
    NEW, PAID, SHIPPED, CANCELLED
}

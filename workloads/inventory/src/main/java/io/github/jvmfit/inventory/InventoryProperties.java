package io.github.jvmfit.inventory;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Paging bounds: every list answer holds at most maxPageSize rows. */
@ConfigurationProperties("inventory")
public record InventoryProperties(int pageSize, int maxPageSize) {
    public InventoryProperties {
        if (pageSize <= 0) pageSize = 20;
        if (maxPageSize < pageSize) maxPageSize = pageSize;
    }
}

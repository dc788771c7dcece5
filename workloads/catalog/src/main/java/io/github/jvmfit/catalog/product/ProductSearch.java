package io.github.jvmfit.catalog.product;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.persistence.criteria.Predicate;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import org.springframework.data.jpa.domain.Specification;

/**
 * The search form: every field optional, all given ones must match. Text
 * matches the name, case-insensitively (a SKU is looked up exactly: q=SKU-00042).
 */
public record ProductSearch(
        @Size(max = 100) String q,
        Long categoryId,
        Long supplierId,
        @Min(0) Long minPriceCents,
        @Min(0) Long maxPriceCents,
        Boolean inStock) {

    Specification<Product> spec() {
        return (root, query, cb) -> {
            List<Predicate> all = new ArrayList<>();
            if (q != null && !q.isBlank()) {
                String text = q.strip();
                if (text.startsWith("SKU-")) {
                    all.add(cb.equal(root.get("sku"), text));
                } else {
                    String like = "%" + text.toLowerCase(Locale.ROOT).replace("%", "\\%").replace("_", "\\_") + "%";
                    all.add(cb.like(cb.lower(root.get("name")), like, '\\'));
                }
            }
            if (categoryId != null) {
                all.add(cb.equal(root.get("category").get("id"), categoryId));
            }
            if (supplierId != null) {
                all.add(cb.equal(root.get("supplier").get("id"), supplierId));
            }
            if (minPriceCents != null) {
                all.add(cb.ge(root.get("priceCents"), minPriceCents));
            }
            if (maxPriceCents != null) {
                all.add(cb.le(root.get("priceCents"), maxPriceCents));
            }
            if (Boolean.TRUE.equals(inStock)) {
                all.add(cb.gt(root.get("stock"), 0));
            }
            return cb.and(all.toArray(Predicate[]::new));
        };
    }
}

package io.github.jvmfit.catalog.product;

import java.time.Instant;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

public final class ProductDtos {
    private ProductDtos() {}

    /** A new product; the SKU is fixed once created. */
    public record NewProduct(
            @NotBlank @Pattern(regexp = "[A-Z0-9-]{3,32}", message = "3-32 capitals, digits or dashes") String sku,
            @NotBlank @Size(max = 200) String name,
            @Size(max = 2000) String description,
            @NotNull @PositiveOrZero @Max(100_000_000) Long priceCents,
            @NotNull @Min(0) Integer stock,
            @NotNull Long categoryId,
            @NotNull Long supplierId) {}

    /** A full replacement of a product's changeable fields. */
    public record ProductUpdate(
            @NotBlank @Size(max = 200) String name,
            @Size(max = 2000) String description,
            @NotNull @PositiveOrZero @Max(100_000_000) Long priceCents,
            @NotNull @Min(0) Integer stock,
            @NotNull Long categoryId,
            @NotNull Long supplierId) {}

    public record Ref(long id, String name) {}

    public record ProductSummary(long id, String sku, String name, long priceCents, int stock, Ref category, Ref supplier) {
        static ProductSummary of(Product p) {
            return new ProductSummary(p.getId(), p.getSku(), p.getName(), p.getPriceCents(), p.getStock(),
                    new Ref(p.getCategory().getId(), p.getCategory().getName()),
                    new Ref(p.getSupplier().getId(), p.getSupplier().getName()));
        }
    }

    public record Rating(double average, long count) {}

    public record ProductDetail(long id, String sku, String name, String description, long priceCents, int stock,
            Ref category, Ref supplier, Rating rating, Instant updatedAt) {
        static ProductDetail of(Product p, Rating rating) {
            return new ProductDetail(p.getId(), p.getSku(), p.getName(), p.getDescription(), p.getPriceCents(),
                    p.getStock(), new Ref(p.getCategory().getId(), p.getCategory().getName()),
                    new Ref(p.getSupplier().getId(), p.getSupplier().getName()), rating, p.getUpdatedAt());
        }
    }
}

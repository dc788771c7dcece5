package io.github.jvmfit.catalog.category;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** What clients send and get for a category. */
public final class CategoryDtos {
    private CategoryDtos() {}

    public record CategoryRequest(
            @NotBlank @Size(max = 80) String name,
            @Size(max = 500) String description) {}

    public record CategoryView(long id, String name, String description) {
        static CategoryView of(Category c) {
            return new CategoryView(c.getId(), c.getName(), c.getDescription());
        }
    }
}

package io.github.jvmfit.catalog.supplier;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

public final class SupplierDtos {
    private SupplierDtos() {}

    public record SupplierRequest(
            @NotBlank @Size(max = 120) String name,
            @NotBlank @Email @Size(max = 200) String email,
            @NotBlank @Pattern(regexp = "[A-Z]{2}", message = "must be an ISO 3166 two-letter code, e.g. JP") String country) {}

    public record SupplierView(long id, String name, String email, String country) {
        static SupplierView of(Supplier s) {
            return new SupplierView(s.getId(), s.getName(), s.getEmail(), s.getCountry());
        }
    }
}

package io.github.jvmfit.catalog.order;

import java.time.Instant;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public final class OrderDtos {
    private OrderDtos() {}

    public record NewOrder(
            @NotBlank @Email @Size(max = 200) String customerEmail,
            @NotEmpty @Size(max = 50) List<@Valid @NotNull NewLine> lines) {}

    public record NewLine(@NotNull Long productId, @NotNull @Min(1) @Max(1000) Integer quantity) {}

    public record StatusChange(@NotNull OrderStatus status) {}

    public record OrderSummary(long id, String customerEmail, OrderStatus status, Instant createdAt, long totalCents) {
        static OrderSummary of(CustomerOrder o) {
            return new OrderSummary(o.getId(), o.getCustomerEmail(), o.getStatus(), o.getCreatedAt(), o.getTotalCents());
        }
    }

    public record LineView(long productId, String sku, String name, int quantity, long unitPriceCents) {
        static LineView of(OrderLine l) {
            return new LineView(l.getProduct().getId(), l.getProduct().getSku(), l.getProduct().getName(),
                    l.getQuantity(), l.getUnitPriceCents());
        }
    }

    public record OrderDetail(long id, String customerEmail, OrderStatus status, Instant createdAt, long totalCents,
            List<LineView> lines) {
        static OrderDetail of(CustomerOrder o) {
            return new OrderDetail(o.getId(), o.getCustomerEmail(), o.getStatus(), o.getCreatedAt(), o.getTotalCents(),
                    o.getLines().stream().map(LineView::of).toList());
        }
    }
}

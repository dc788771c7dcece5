package io.github.jvmfit.catalog.order;

import java.net.URI;
import java.util.Set;

import io.github.jvmfit.catalog.order.OrderDtos.NewOrder;
import io.github.jvmfit.catalog.order.OrderDtos.OrderDetail;
import io.github.jvmfit.catalog.order.OrderDtos.OrderSummary;
import io.github.jvmfit.catalog.order.OrderDtos.StatusChange;
import io.github.jvmfit.catalog.web.PageParams;
import jakarta.validation.Valid;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.web.PageableDefault;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/orders")
class OrderController {
    private static final Set<String> SORTABLE = Set.of("id", "createdAt", "totalCents");
    private final OrderService service;

    OrderController(OrderService service) {
        this.service = service;
    }

    @GetMapping
    Page<OrderSummary> list(@RequestParam(required = false) OrderStatus status,
            @RequestParam(required = false) String customerEmail,
            @PageableDefault(sort = "createdAt", direction = Sort.Direction.DESC) Pageable page) {
        return service.list(status, customerEmail, PageParams.checked(page, SORTABLE));
    }

    @GetMapping("/{id}")
    OrderDetail get(@PathVariable long id) {
        return service.get(id);
    }

    @PostMapping
    ResponseEntity<OrderDetail> place(@Valid @RequestBody NewOrder body) {
        OrderDetail o = service.place(body);
        return ResponseEntity.created(URI.create("/api/orders/" + o.id())).body(o);
    }

    @PutMapping("/{id}/status")
    OrderDetail changeStatus(@PathVariable long id, @Valid @RequestBody StatusChange body) {
        return service.changeStatus(id, body.status());
    }
}

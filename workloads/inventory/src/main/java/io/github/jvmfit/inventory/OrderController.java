package io.github.jvmfit.inventory;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {
    private final OrderStore orders;
    private final InventoryProperties props;

    OrderController(OrderStore orders, InventoryProperties props) {
        this.orders = orders;
        this.props = props;
    }

    @GetMapping("/api/orders")
    Page<OrderSummary> list(@RequestParam(required = false) Integer page, @RequestParam(required = false) Integer size) {
        return orders.list(PageRequest.of(page, size, props));
    }

    @GetMapping("/api/orders/{id}")
    OrderDetail get(@PathVariable long id) {
        return orders.find(id).orElseThrow(() -> new NotFoundException("no order " + id));
    }

    @PostMapping("/api/orders")
    ResponseEntity<OrderDetail> create(@RequestBody NewOrder order) {
        order.validate();
        long id = orders.create(order);
        return ResponseEntity.created(URI.create("/api/orders/" + id)).body(orders.find(id).orElseThrow());
    }

    @GetMapping("/api/order-lines")
    Page<OrderLine> lines(@RequestParam(required = false) Integer page, @RequestParam(required = false) Integer size) {
        return orders.lines(PageRequest.of(page, size, props));
    }
}

package io.github.jvmfit.inventory;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/customers")
class CustomerController {
    private final CustomerStore customers;
    private final OrderStore orders;
    private final InventoryProperties props;

    CustomerController(CustomerStore customers, OrderStore orders, InventoryProperties props) {
        this.customers = customers;
        this.orders = orders;
        this.props = props;
    }

    @GetMapping
    Page<Customer> list(@RequestParam(required = false) Integer page, @RequestParam(required = false) Integer size) {
        return customers.list(PageRequest.of(page, size, props));
    }

    @GetMapping("/{id}")
    Customer get(@PathVariable long id) {
        return customers.find(id).orElseThrow(() -> new NotFoundException("no customer " + id));
    }

    @GetMapping("/{id}/orders")
    Page<OrderSummary> orders(@PathVariable long id, @RequestParam(required = false) Integer page,
            @RequestParam(required = false) Integer size) {
        return orders.listOfCustomer(id, PageRequest.of(page, size, props));
    }
}

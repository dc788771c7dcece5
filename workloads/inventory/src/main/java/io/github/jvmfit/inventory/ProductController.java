package io.github.jvmfit.inventory;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/products")
class ProductController {
    private final ProductStore store;
    private final InventoryProperties props;

    ProductController(ProductStore store, InventoryProperties props) {
        this.store = store;
        this.props = props;
    }

    @GetMapping
    Page<Product> list(@RequestParam(required = false) Integer page, @RequestParam(required = false) Integer size) {
        return store.list(PageRequest.of(page, size, props));
    }

    @GetMapping("/{id}")
    Product get(@PathVariable long id) {
        return store.find(id).orElseThrow(() -> new NotFoundException("no product " + id));
    }
}

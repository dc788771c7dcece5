package io.github.jvmfit.catalog.product;

import java.net.URI;
import java.util.Set;

import io.github.jvmfit.catalog.product.ProductDtos.NewProduct;
import io.github.jvmfit.catalog.product.ProductDtos.ProductDetail;
import io.github.jvmfit.catalog.product.ProductDtos.ProductSummary;
import io.github.jvmfit.catalog.product.ProductDtos.ProductUpdate;
import io.github.jvmfit.catalog.web.PageParams;
import io.github.jvmfit.catalog.web.SliceView;
import jakarta.validation.Valid;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.web.PageableDefault;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/products")
class ProductController {
    private static final Set<String> SORTABLE = Set.of("id", "sku", "name", "priceCents", "stock", "updatedAt");
    private final ProductService service;

    ProductController(ProductService service) {
        this.service = service;
    }

    /** All products, paged; the same filters as /search are accepted. */
    @GetMapping
    Page<ProductSummary> list(@Valid @ModelAttribute ProductSearch search, @PageableDefault(sort = "id") Pageable page) {
        return service.list(search, PageParams.checked(page, SORTABLE));
    }

    /**
     * Search: ?q=text&categoryId=&supplierId=&minPriceCents=&maxPriceCents=&inStock=true, in slices
     * ({content, number, size, hasNext}) rather than pages: no total, so no second scan.
     */
    @GetMapping("/search")
    SliceView<ProductSummary> search(@Valid @ModelAttribute ProductSearch search, @PageableDefault(sort = "name") Pageable page) {
        return SliceView.of(service.search(search, PageParams.checked(page, SORTABLE)));
    }

    @GetMapping("/{id}")
    ProductDetail get(@PathVariable long id) {
        return service.get(id);
    }

    @PostMapping
    ResponseEntity<ProductDetail> create(@Valid @RequestBody NewProduct body) {
        ProductDetail p = service.create(body);
        return ResponseEntity.created(URI.create("/api/products/" + p.id())).body(p);
    }

    @PutMapping("/{id}")
    ProductDetail update(@PathVariable long id, @Valid @RequestBody ProductUpdate body) {
        return service.update(id, body);
    }
}

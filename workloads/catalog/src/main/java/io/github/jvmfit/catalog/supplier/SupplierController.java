package io.github.jvmfit.catalog.supplier;

import java.net.URI;
import java.util.Set;

import io.github.jvmfit.catalog.supplier.SupplierDtos.SupplierRequest;
import io.github.jvmfit.catalog.supplier.SupplierDtos.SupplierView;
import io.github.jvmfit.catalog.web.PageParams;
import jakarta.validation.Valid;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
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
@RequestMapping("/api/suppliers")
class SupplierController {
    private static final Set<String> SORTABLE = Set.of("id", "name", "country");
    private final SupplierService service;

    SupplierController(SupplierService service) {
        this.service = service;
    }

    @GetMapping
    Page<SupplierView> list(@RequestParam(required = false) String country, @PageableDefault(sort = "id") Pageable page) {
        return service.list(country, PageParams.checked(page, SORTABLE));
    }

    @GetMapping("/{id}")
    SupplierView get(@PathVariable long id) {
        return service.get(id);
    }

    @PostMapping
    ResponseEntity<SupplierView> create(@Valid @RequestBody SupplierRequest body) {
        SupplierView s = service.create(body);
        return ResponseEntity.created(URI.create("/api/suppliers/" + s.id())).body(s);
    }

    @PutMapping("/{id}")
    SupplierView update(@PathVariable long id, @Valid @RequestBody SupplierRequest body) {
        return service.update(id, body);
    }
}

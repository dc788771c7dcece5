package io.github.jvmfit.catalog.category;

import java.net.URI;
import java.util.Set;

import io.github.jvmfit.catalog.category.CategoryDtos.CategoryRequest;
import io.github.jvmfit.catalog.category.CategoryDtos.CategoryView;
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
@RequestMapping("/api/categories")
class CategoryController {
    private static final Set<String> SORTABLE = Set.of("id", "name");
    private final CategoryService service;

    CategoryController(CategoryService service) {
        this.service = service;
    }

    @GetMapping
    Page<CategoryView> list(@RequestParam(required = false) String q, @PageableDefault(sort = "name") Pageable page) {
        return service.list(q, PageParams.checked(page, SORTABLE));
    }

    @GetMapping("/{id}")
    CategoryView get(@PathVariable long id) {
        return service.get(id);
    }

    @PostMapping
    ResponseEntity<CategoryView> create(@Valid @RequestBody CategoryRequest body) {
        CategoryView c = service.create(body);
        return ResponseEntity.created(URI.create("/api/categories/" + c.id())).body(c);
    }

    @PutMapping("/{id}")
    CategoryView update(@PathVariable long id, @Valid @RequestBody CategoryRequest body) {
        return service.update(id, body);
    }
}

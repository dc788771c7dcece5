package io.github.jvmfit.catalog.category;

import io.github.jvmfit.catalog.category.CategoryDtos.CategoryRequest;
import io.github.jvmfit.catalog.category.CategoryDtos.CategoryView;
import io.github.jvmfit.catalog.web.ConflictException;
import io.github.jvmfit.catalog.web.NotFoundException;

import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Categories change rarely and are read on every product view, so single ones are cached. */
@Service
@Transactional(readOnly = true)
public class CategoryService {
    static final String CACHE = "categories";
    private final CategoryRepository categories;

    CategoryService(CategoryRepository categories) {
        this.categories = categories;
    }

    public Page<CategoryView> list(String q, Pageable page) {
        Page<Category> found = q == null || q.isBlank() ? categories.findAll(page)
                : categories.findByNameContainingIgnoreCase(q.strip(), page);
        return found.map(CategoryView::of);
    }

    @Cacheable(CACHE)
    public CategoryView get(long id) {
        return CategoryView.of(entity(id));
    }

    public Category entity(long id) {
        return categories.findById(id).orElseThrow(() -> new NotFoundException("category", id));
    }

    @Transactional
    public CategoryView create(CategoryRequest r) {
        uniqueName(r.name(), null);
        return CategoryView.of(categories.save(new Category(r.name().strip(), r.description())));
    }

    @Transactional
    @CacheEvict(value = CACHE, key = "#id")
    public CategoryView update(long id, CategoryRequest r) {
        Category c = entity(id);
        uniqueName(r.name(), id);
        c.setName(r.name().strip());
        c.setDescription(r.description());
        return CategoryView.of(c);
    }

    private void uniqueName(String name, Long self) {
        categories.findByNameIgnoreCase(name.strip())
                .filter(other -> !other.getId().equals(self))
                .ifPresent(other -> {
                    throw new ConflictException("category '" + name.strip() + "' exists: id " + other.getId());
                });
    }
}

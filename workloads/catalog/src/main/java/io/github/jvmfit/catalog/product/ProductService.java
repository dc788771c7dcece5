package io.github.jvmfit.catalog.product;

import io.github.jvmfit.catalog.category.Category;
import io.github.jvmfit.catalog.category.CategoryService;
import io.github.jvmfit.catalog.product.ProductDtos.NewProduct;
import io.github.jvmfit.catalog.product.ProductDtos.ProductDetail;
import io.github.jvmfit.catalog.product.ProductDtos.ProductSummary;
import io.github.jvmfit.catalog.product.ProductDtos.ProductUpdate;
import io.github.jvmfit.catalog.product.ProductDtos.Rating;
import io.github.jvmfit.catalog.supplier.Supplier;
import io.github.jvmfit.catalog.supplier.SupplierService;
import io.github.jvmfit.catalog.web.BadRequestException;
import io.github.jvmfit.catalog.web.ConflictException;
import io.github.jvmfit.catalog.web.NotFoundException;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class ProductService {
    private final ProductRepository products;
    private final CategoryService categories;
    private final SupplierService suppliers;

    ProductService(ProductRepository products, CategoryService categories, SupplierService suppliers) {
        this.products = products;
        this.categories = categories;
        this.suppliers = suppliers;
    }

    public Page<ProductSummary> list(ProductSearch search, Pageable page) {
        return products.findAll(search.spec(), page).map(ProductSummary::of);
    }

    /**
     * A slice, not a page: no count query. A text match scans every name, and
     * counting the matches would scan them all a second time.
     */
    public Slice<ProductSummary> search(ProductSearch search, Pageable page) {
        return products.findBy(search.spec(), q -> q.project("category", "supplier").slice(page)).map(ProductSummary::of);
    }

    public ProductDetail get(long id) {
        Product p = products.findWithRefsById(id).orElseThrow(() -> new NotFoundException("product", id));
        ProductRepository.RatingRow r = products.ratingOf(id);
        return ProductDetail.of(p, new Rating(Math.round(r.getAverage() * 100) / 100.0, r.getCount()));
    }

    /** The entity, for other resources that refer to a product (reviews, order lines). */
    public Product entity(long id) {
        return products.findById(id).orElseThrow(() -> new NotFoundException("product", id));
    }

    /** The entity, row-locked until the caller's transaction ends (orders taking stock). */
    @Transactional
    public Product lockedEntity(long id) {
        return products.findForUpdateById(id).orElseThrow(() -> new NotFoundException("product", id));
    }

    @Transactional
    public ProductDetail create(NewProduct r) {
        products.findBySku(r.sku()).ifPresent(other -> {
            throw new ConflictException("SKU " + r.sku() + " exists: product " + other.getId());
        });
        Product p = new Product(r.sku(), category(r.categoryId()), supplier(r.supplierId()));
        apply(p, r.name(), r.description(), r.priceCents(), r.stock());
        return ProductDetail.of(products.save(p), new Rating(0, 0));
    }

    @Transactional
    public ProductDetail update(long id, ProductUpdate r) {
        Product p = entity(id);
        p.setCategory(category(r.categoryId()));
        p.setSupplier(supplier(r.supplierId()));
        apply(p, r.name(), r.description(), r.priceCents(), r.stock());
        products.flush();
        return get(id);
    }

    private static void apply(Product p, String name, String description, long priceCents, int stock) {
        p.setName(name.strip());
        p.setDescription(description);
        p.setPriceCents(priceCents);
        p.setStock(stock);
    }

    private Category category(long id) {
        try {
            return categories.entity(id);
        } catch (NotFoundException e) {
            throw new BadRequestException("categoryId " + id + " does not exist");
        }
    }

    private Supplier supplier(long id) {
        try {
            return suppliers.entity(id);
        } catch (NotFoundException e) {
            throw new BadRequestException("supplierId " + id + " does not exist");
        }
    }
}

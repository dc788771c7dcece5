package io.github.jvmfit.catalog.supplier;

import java.util.Locale;

import io.github.jvmfit.catalog.supplier.SupplierDtos.SupplierRequest;
import io.github.jvmfit.catalog.supplier.SupplierDtos.SupplierView;
import io.github.jvmfit.catalog.web.ConflictException;
import io.github.jvmfit.catalog.web.NotFoundException;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class SupplierService {
    private final SupplierRepository suppliers;

    SupplierService(SupplierRepository suppliers) {
        this.suppliers = suppliers;
    }

    public Page<SupplierView> list(String country, Pageable page) {
        Page<Supplier> found = country == null || country.isBlank() ? suppliers.findAll(page)
                : suppliers.findByCountry(country.strip().toUpperCase(Locale.ROOT), page);
        return found.map(SupplierView::of);
    }

    public SupplierView get(long id) {
        return SupplierView.of(entity(id));
    }

    public Supplier entity(long id) {
        return suppliers.findById(id).orElseThrow(() -> new NotFoundException("supplier", id));
    }

    @Transactional
    public SupplierView create(SupplierRequest r) {
        uniqueEmail(r.email(), null);
        return SupplierView.of(suppliers.save(new Supplier(r.name().strip(), r.email().strip(), r.country())));
    }

    @Transactional
    public SupplierView update(long id, SupplierRequest r) {
        Supplier s = entity(id);
        uniqueEmail(r.email(), id);
        s.setName(r.name().strip());
        s.setEmail(r.email().strip());
        s.setCountry(r.country());
        return SupplierView.of(s);
    }

    private void uniqueEmail(String email, Long self) {
        suppliers.findByEmailIgnoreCase(email.strip())
                .filter(other -> !other.getId().equals(self))
                .ifPresent(other -> {
                    throw new ConflictException("supplier with email " + email.strip() + " exists: id " + other.getId());
                });
    }
}

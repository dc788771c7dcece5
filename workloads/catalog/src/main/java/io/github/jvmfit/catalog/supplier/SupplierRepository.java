package io.github.jvmfit.catalog.supplier;

import java.util.Optional;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

public interface SupplierRepository extends JpaRepository<Supplier, Long> {
    Page<Supplier> findByCountry(String country, Pageable page);

    Optional<Supplier> findByEmailIgnoreCase(String email);
}

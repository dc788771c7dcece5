package io.github.jvmfit.catalog;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.security.servlet.UserDetailsServiceAutoConfiguration;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Issue 13's large service: a product catalog with the stack a typical Spring
 * Boot service carries (JPA over H2, Flyway, validation, caching, security,
 * actuator, a scheduled job). Its point is its footprint: over 15,000 loaded
 * classes and over 90 MiB of metaspace, which a fixed metaspace rule under-sizes.
 */
// No user store: the filter chain permits all (SecurityConfig), so no generated password either.
@SpringBootApplication(exclude = UserDetailsServiceAutoConfiguration.class)
@EnableCaching
@EnableScheduling
public class CatalogApplication {
    public static void main(String[] args) {
        SpringApplication.run(CatalogApplication.class, args);
    }
}

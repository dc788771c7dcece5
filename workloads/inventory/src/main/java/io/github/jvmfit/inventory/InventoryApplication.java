package io.github.jvmfit.inventory;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Seed 002's case: a REST API over PostgreSQL whose pools follow the CPU count. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class InventoryApplication {
    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(InventoryApplication.class);
        app.setDefaultProperties(poolDefaults(Runtime.getRuntime().availableProcessors()));
        app.run(args);
    }

    /**
     * Seed 002 sized the connection pool at CPUs x 20 and the request threads at
     * CPUs x 60. Default properties rank below every other source, so
     * application.properties, -D and --args still win.
     */
    static Map<String, Object> poolDefaults(int cpus) {
        return Map.of(
                "spring.datasource.hikari.maximum-pool-size", cpus * 20,
                "server.tomcat.threads.max", cpus * 60);
    }
}

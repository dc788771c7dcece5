package io.github.jvmfit.inventory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A throwaway PostgreSQL cluster per test class, wired in as the service's datasource. */
abstract class WithPostgres {
    static PostgresCluster db;

    @BeforeAll
    static void database() throws Exception {
        db = PostgresCluster.start();
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        if (db != null) {
            db.close();
            db = null;
        }
    }

    @DynamicPropertySource
    static void datasource(DynamicPropertyRegistry r) {
        r.add("spring.datasource.url", () -> db.jdbcUrl());
    }
}

package io.github.jvmfit.sort;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Seed 003's service: GET /status does nothing, POST /sort sorts lists on a bounded pool. */
@SpringBootApplication
public class SortApplication {
    public static void main(String[] args) {
        SpringApplication.run(SortApplication.class, args);
    }
}

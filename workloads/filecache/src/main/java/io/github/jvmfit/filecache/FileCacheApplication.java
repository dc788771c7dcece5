package io.github.jvmfit.filecache;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** Seed 001's file cache service: named files, up to 10 versions each, all in the heap. */
@SpringBootApplication
@EnableConfigurationProperties(FileCacheProperties.class)
public class FileCacheApplication {
    public static void main(String[] args) {
        SpringApplication.run(FileCacheApplication.class, args);
    }
}

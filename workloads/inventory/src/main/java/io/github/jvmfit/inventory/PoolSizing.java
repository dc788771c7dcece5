package io.github.jvmfit.inventory;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Seed 002 sized the connection pool at CPUs x 20 and the request threads at
 * CPUs x 60. The CPU count is the JVM's (the container's quota or cpuset, or
 * -XX:ActiveProcessorCount). The defaults go last, so application.properties,
 * -D and --args still win.
 */
class PoolSizing implements EnvironmentPostProcessor {
    static final String POOL = "spring.datasource.hikari.maximum-pool-size";
    static final String THREADS = "server.tomcat.threads.max";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication app) {
        env.getPropertySources().addLast(new MapPropertySource("seed002PoolSizing",
                defaults(Runtime.getRuntime().availableProcessors())));
    }

    static Map<String, Object> defaults(int cpus) {
        return Map.of(POOL, cpus * 20, THREADS, cpus * 60);
    }
}

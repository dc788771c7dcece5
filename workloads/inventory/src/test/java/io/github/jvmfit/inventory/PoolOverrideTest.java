package io.github.jvmfit.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/** Properties given by the user win over seed 002's CPU-based defaults. */
class PoolOverrideTest {
    @Test
    void userSettingsWin() {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("args", Map.of(PoolSizing.POOL, "7")));
        new PoolSizing().postProcessEnvironment(env, new SpringApplication());
        assertEquals("7", env.getProperty(PoolSizing.POOL));
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(String.valueOf(cpus * 60), env.getProperty(PoolSizing.THREADS));
    }
}

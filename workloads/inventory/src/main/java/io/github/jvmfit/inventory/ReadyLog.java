package io.github.jvmfit.inventory;

import java.lang.management.ManagementFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * One line with what seed 002 varied (CPUs, pool, threads) and the start time
 * counted from JVM start, so a trial's log says which sizing it ran with.
 */
@Component
class ReadyLog {
    private static final Logger log = LoggerFactory.getLogger(ReadyLog.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        Environment env = event.getApplicationContext().getEnvironment();
        log.info("READY in {} ms on port {}: {} CPUs, pool {}, threads {}",
                ManagementFactory.getRuntimeMXBean().getUptime(),
                env.getProperty("local.server.port", "?"),
                Runtime.getRuntime().availableProcessors(),
                env.getProperty("spring.datasource.hikari.maximum-pool-size"),
                env.getProperty("server.tomcat.threads.max"));
    }
}

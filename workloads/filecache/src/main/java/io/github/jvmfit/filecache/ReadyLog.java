package io.github.jvmfit.filecache;

import java.lang.management.ManagementFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * One line a harness can match ("READY in N ms"), counted from JVM start, so it
 * includes the JVM's own start-up that Spring's "Started ... in" omits.
 */
@Component
class ReadyLog {
    private static final Logger log = LoggerFactory.getLogger(ReadyLog.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        long ms = ManagementFactory.getRuntimeMXBean().getUptime();
        String port = event.getApplicationContext().getEnvironment().getProperty("local.server.port", "?");
        log.info("READY in {} ms on port {}", ms, port);
    }
}

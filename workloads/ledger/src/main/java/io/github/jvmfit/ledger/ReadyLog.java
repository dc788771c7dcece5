package io.github.jvmfit.ledger;

import java.lang.management.ManagementFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** "READY in N ms on port P (C classes loaded)": start time from JVM start, and the class count this service is sized by. */
@Component
class ReadyLog {
    private static final Logger log = LoggerFactory.getLogger(ReadyLog.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        long ms = ManagementFactory.getRuntimeMXBean().getUptime();
        int classes = ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
        String port = event.getApplicationContext().getEnvironment().getProperty("local.server.port", "?");
        log.info("READY in {} ms on port {} ({} classes loaded)", ms, port, classes);
    }
}

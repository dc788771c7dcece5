package io.github.jvmfit.sort;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The bounded pool of seed 003, sized by the same system properties
 * (-DcorePoolSize, -DmaxPoolSize, -DqueueCapacity; --corePoolSize=... works too).
 * Like any ThreadPoolExecutor it grows past corePoolSize only once the queue is full,
 * and rejects when both are full: that is the saturation jvmfit should find.
 */
@Configuration
class SortPool {
    private static final Logger log = LoggerFactory.getLogger(SortPool.class);

    @Bean(destroyMethod = "shutdown")
    ThreadPoolTaskExecutor sortExecutor(@Value("${corePoolSize:10}") int core,
                                        @Value("${maxPoolSize:20}") int max,
                                        @Value("${queueCapacity:100}") int queue) {
        if (core < 1 || max < core || queue < 0) {
            throw new IllegalArgumentException("need 1 <= corePoolSize <= maxPoolSize and queueCapacity >= 0, got corePoolSize="
                    + core + " maxPoolSize=" + max + " queueCapacity=" + queue);
        }
        ThreadPoolTaskExecutor pool = new ThreadPoolTaskExecutor();
        pool.setCorePoolSize(core);
        pool.setMaxPoolSize(max);
        pool.setQueueCapacity(queue);
        pool.setThreadNamePrefix("sort-");
        pool.setWaitForTasksToCompleteOnShutdown(false);
        log.info("sort pool: corePoolSize={} maxPoolSize={} queueCapacity={}", core, max, queue);
        return pool;
    }
}

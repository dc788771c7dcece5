package io.github.jvmfit.sort;

import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/** The pool refused a task (or could not finish in time): answered 503, never 500. */
class PoolSaturatedException extends RuntimeException {
    PoolSaturatedException(ThreadPoolTaskExecutor pool) {
        super("sort pool saturated (" + pool.getActiveCount() + " of " + pool.getMaxPoolSize() + " threads busy, queue "
                + pool.getQueueSize() + " of " + pool.getQueueCapacity()
                + "); retry later, or raise -DmaxPoolSize / -DqueueCapacity");
    }
}

package io.github.jvmfit.sort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Service;

/**
 * Sorts each list as its own task on the bounded pool. Each task first sleeps a
 * random sort.min-sleep-ms..sort.max-sleep-ms (0..100 by default) to stand in for I/O, from one seeded generator so a
 * run's sequence of sleeps is reproducible.
 */
@Service
public class SortService {

    private final ThreadPoolTaskExecutor pool;
    private final Random random;
    private final int minSleepMs;
    private final int maxSleepMs;
    private final long timeoutMs;

    public SortService(ThreadPoolTaskExecutor pool,
                       @Value("${sort.seed:42}") long seed,
                       @Value("${sort.min-sleep-ms:0}") int minSleepMs,
                       @Value("${sort.max-sleep-ms:100}") int maxSleepMs,
                       @Value("${sort.timeout-ms:30000}") long timeoutMs) {
        if (minSleepMs < 0 || maxSleepMs < minSleepMs) {
            throw new IllegalArgumentException("need 0 <= sort.min-sleep-ms <= sort.max-sleep-ms, got "
                    + minSleepMs + " and " + maxSleepMs);
        }
        this.minSleepMs = minSleepMs;
        this.pool = pool;
        this.random = new Random(seed);
        this.maxSleepMs = maxSleepMs;
        this.timeoutMs = timeoutMs;
    }

    public SortBody sort(SortBody body) {
        List<CompletableFuture<SortBody.IntList>> tasks = new ArrayList<>(body.intList().size());
        try {
            for (SortBody.IntList in : body.intList()) {
                int sleep = minSleepMs + random.nextInt(maxSleepMs - minSleepMs + 1);
                tasks.add(CompletableFuture.supplyAsync(() -> sortOne(in, sleep), pool));
            }
        } catch (TaskRejectedException e) {
            tasks.forEach(t -> t.cancel(true));
            throw new PoolSaturatedException(pool);
        }
        List<SortBody.IntList> out = new ArrayList<>(tasks.size());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            for (CompletableFuture<SortBody.IntList> t : tasks) {
                out.add(t.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sorting", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("sort task failed", e.getCause());
        } catch (TimeoutException e) {
            tasks.forEach(t -> t.cancel(true));
            throw new PoolSaturatedException(pool);
        }
        return new SortBody(out);
    }

    private static SortBody.IntList sortOne(SortBody.IntList in, int sleepMs) {
        if (sleepMs > 0) {
            try {
                Thread.sleep(sleepMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("sort task cancelled", e);
            }
        }
        int[] a = in.list().stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(a);
        List<Integer> sorted = new ArrayList<>(a.length);
        for (int v : a) sorted.add(v);
        return new SortBody.IntList(sorted);
    }
}

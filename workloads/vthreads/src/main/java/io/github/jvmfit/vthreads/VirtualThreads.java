package io.github.jvmfit.vthreads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Virtual threads reached through method handles: the jar is Java 17
 * bytecode like every sample (one build on the JDK 17 that runs Maven), and
 * the API exists only from JDK 21. On an older JDK, {@link #check()} says so.
 */
final class VirtualThreads {
    private static final MethodHandle NEW_EXECUTOR;
    private static final MethodHandle IS_VIRTUAL;

    static {
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        MethodHandle exec = null;
        MethodHandle virt = null;
        try {
            exec = l.findStatic(Executors.class, "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class));
            virt = l.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            // Before JDK 21: check() refuses.
        }
        NEW_EXECUTOR = exec;
        IS_VIRTUAL = virt;
    }

    private VirtualThreads() {
    }

    /** Fails with what is wrong and what to do when this JDK has no virtual threads. */
    static void check() {
        if (NEW_EXECUTOR == null || IS_VIRTUAL == null) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or newer; this is Java " + Runtime.version()
                    + " at " + System.getProperty("java.home") + ": run it with a JDK 21+ java");
        }
    }

    /** One new virtual thread per task. */
    static ExecutorService perTaskExecutor() {
        check();
        try {
            return (ExecutorService) NEW_EXECUTOR.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("Executors.newVirtualThreadPerTaskExecutor failed", t);
        }
    }

    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual failed", e);
        }
    }
}

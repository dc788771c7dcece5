package io.github.jvmfit.sidecar;

import java.util.concurrent.atomic.AtomicLong;

/** What the proxy counted since it started, shown at /sidecar/stats. */
final class Stats {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong opened = new AtomicLong();
    final AtomicLong reused = new AtomicLong();
    final AtomicLong badGateway = new AtomicLong();
    final AtomicLong timeouts = new AtomicLong();

    String json() {
        return String.format("{\"requests\":%d,\"upstream_connections_opened\":%d,\"upstream_connections_reused\":%d,\"bad_gateway\":%d,\"gateway_timeout\":%d}",
                requests.get(), opened.get(), reused.get(), badGateway.get(), timeouts.get());
    }
}

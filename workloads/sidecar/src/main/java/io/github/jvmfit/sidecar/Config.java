package io.github.jvmfit.sidecar;

import java.util.ArrayList;
import java.util.List;

/**
 * Command-line settings, {@code --name=value}; every one but the routes has a
 * default. {@code --route=/prefix=host:port} may be given many times;
 * {@code --upstream=host:port} is {@code --route=/=host:port}.
 */
record Config(int port, Routes routes, int pool, int connectTimeoutMs, int timeoutMs, int threads) {
    private static final String KNOWN = "--port, --route, --upstream, --pool, --connect-timeout-ms, --timeout-ms, --threads";

    static Config parse(String[] args) {
        int port = 8080, pool = 64, connectTimeoutMs = 1000, timeoutMs = 1000, threads = 1;
        List<Routes.Route> routes = new ArrayList<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("argument " + a + ": expected --name=value (" + KNOWN + ")");
            }
            String name = a.substring(2, eq);
            String v = a.substring(eq + 1);
            switch (name) {
                case "port" -> port = number(a, v, 0, 65535);
                case "route" -> routes.add(Routes.parse(a, v));
                case "upstream" -> routes.add(Routes.parse(a, "/=" + v));
                case "pool" -> pool = number(a, v, 0, 10_000);
                case "connect-timeout-ms" -> connectTimeoutMs = number(a, v, 1, 600_000);
                case "timeout-ms" -> timeoutMs = number(a, v, 1, 600_000);
                case "threads" -> threads = number(a, v, 1, 256);
                default -> throw new IllegalArgumentException("unknown option --" + name + " (known: " + KNOWN + ")");
            }
        }
        if (routes.isEmpty()) {
            throw new IllegalArgumentException("no upstream: give --upstream=host:port or --route=/prefix=host:port");
        }
        return new Config(port, new Routes(routes), pool, connectTimeoutMs, timeoutMs, threads);
    }

    static int number(String arg, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("argument " + arg + ": expected a whole number from " + min + " to " + max);
    }
}

package io.github.jvmfit.sidecar;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Routing by path prefix: the longest prefix that matches wins. A prefix
 * matches whole path segments ("/api" matches /api and /api/x, not /apix);
 * the path is forwarded unchanged.
 */
final class Routes {
    record Route(String prefix, InetSocketAddress upstream) {
        boolean matches(String path) {
            if (prefix.endsWith("/")) {
                return path.startsWith(prefix) || path.equals(prefix.substring(0, prefix.length() - 1));
            }
            return path.equals(prefix) || path.startsWith(prefix + "/");
        }

        /** The Host header sent upstream. */
        String host() {
            return upstream.getHostString() + ":" + upstream.getPort();
        }
    }

    private final List<Route> routes;

    Routes(List<Route> routes) {
        this.routes = new ArrayList<>(routes);
        this.routes.sort(Comparator.comparingInt((Route r) -> r.prefix.length()).reversed());
    }

    /** The route for this path, or null when no prefix matches. */
    Route match(String path) {
        for (Route r : routes) {
            if (r.matches(path)) {
                return r;
            }
        }
        return null;
    }

    /** Reads PREFIX=HOST:PORT; the address is resolved once, here. */
    static Route parse(String arg, String v) {
        int eq = v.indexOf('=');
        String prefix = eq < 0 ? "" : v.substring(0, eq);
        String addr = eq < 0 ? "" : v.substring(eq + 1);
        int colon = addr.lastIndexOf(':');
        if (!prefix.startsWith("/") || colon <= 0) {
            throw new IllegalArgumentException("argument " + arg + ": expected /prefix=host:port, e.g. /api=127.0.0.1:9000");
        }
        int port = Config.number(arg, addr.substring(colon + 1), 1, 65535);
        return new Route(prefix, new InetSocketAddress(addr.substring(0, colon), port));
    }
}

package io.github.jvmfit.inventory;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real, throwaway PostgreSQL cluster for tests, made the way jvmfit makes
 * one: initdb into a temp directory with the Debian server binaries, trust
 * on loopback, a free port, fsync off. As root the server runs as the
 * postgres user (it refuses root).
 */
final class PostgresCluster implements AutoCloseable {
    private static final Path ROOT = Path.of("/usr/lib/postgresql");

    private final Path bin;
    private final Path dir;
    private final int port;

    private PostgresCluster(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    /** The newest installed server's bin directory, or null. */
    static Path serverBin() {
        try (Stream<Path> vs = Files.list(ROOT)) {
            return vs.filter(v -> v.getFileName().toString().matches("\\d+"))
                    .filter(v -> Files.isExecutable(v.resolve("bin/postgres")))
                    .max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString())))
                    .map(v -> v.resolve("bin")).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** Starts a cluster with a database and role named "inventory". */
    static PostgresCluster start() throws Exception {
        Path bin = serverBin();
        if (bin == null) {
            throw new IllegalStateException("missing prerequisite: PostgreSQL server (" + ROOT
                    + "/<version>/bin/postgres): install it with `bash .ci/install` (make test runs it)");
        }
        Path dir = Files.createTempDirectory("jvmfit-test-pg-");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PostgresCluster c = new PostgresCluster(bin, dir, port);
        try {
            if (isRoot()) {
                run(List.of("chown", "postgres:postgres", dir.toString()));
            }
            c.asServer(List.of(bin.resolve("initdb").toString(), "-D", c.data(), "-U", "postgres", "--auth=trust",
                    "--encoding=UTF8", "--locale=C", "--no-sync"));
            c.resume();
            run(List.of(bin.resolve("psql").toString(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                    "-p", String.valueOf(port), "-U", "postgres", "-d", "postgres",
                    "-c", "CREATE ROLE inventory LOGIN", "-c", "CREATE DATABASE inventory OWNER inventory"));
            return c;
        } catch (Exception e) {
            c.close();
            throw e;
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/inventory";
    }

    /** Fast shutdown: what a lost database looks like to the app. */
    void pause() throws Exception {
        asServer(List.of(bin.resolve("pg_ctl").toString(), "-D", data(), "-m", "fast", "-w", "stop"));
    }

    /** Starts the server again on the same port, data kept. */
    void resume() throws Exception {
        asServer(List.of(bin.resolve("pg_ctl").toString(), "-D", data(), "-w", "-l", dir.resolve("log").toString(),
                "-o", "-p " + port + " -h 127.0.0.1 -k " + dir + " -c fsync=off", "start"));
    }

    @Override
    public void close() throws Exception {
        if (Files.exists(dir.resolve("data/postmaster.pid"))) {
            asServer(List.of(bin.resolve("pg_ctl").toString(), "-D", data(), "-m", "immediate", "-w", "stop"));
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private void asServer(List<String> argv) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (isRoot()) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(argv);
        run(cmd);
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(cmd.get(cmd.size() > 4 && isRoot() ? 4 : 0) + " failed: " + out.strip());
        }
    }
}

package io.github.jvmfit.metricsagent;

import com.sun.net.httpserver.BasicAuthenticator;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;

/**
 * A Java agent that serves the JVM's figures in Prometheus's text format on a loopback port:
 * client_java's JVM instrumentation (memory pools, buffers, threads, classes, GC), the names
 * {@code jvmfit profile --scrape} reads as client_java's. The sample services of the panel have no
 * metrics of their own; in production a service's endpoint is Micrometer's or client_java's, and
 * this agent is what gives a sample the second kind.
 *
 * <p>Arguments, comma separated: {@code port-file=PATH} (required: the port it listens on is
 * written there once it listens, atomically, since it is picked free), {@code password-file=PATH}
 * (required: clients authenticate as user {@code jvmfit} with the file's first line, because
 * loopback is shared by every local user of the host).
 */
public final class Agent {
  private Agent() {}

  public static void premain(String args) throws IOException {
    Args a = Args.parse(args);
    byte[] password = Files.readAllLines(a.passwordFile(), StandardCharsets.UTF_8).stream()
        .findFirst().orElse("").strip().getBytes(StandardCharsets.UTF_8);
    if (password.length == 0) {
      throw new IllegalArgumentException("metrics-agent: " + a.passwordFile() + " is empty: write a password in it");
    }
    JvmMetrics.builder().register();
    HTTPServer server = HTTPServer.builder()
        .inetAddress(InetAddress.getLoopbackAddress())
        .port(0)
        .authenticator(new BasicAuthenticator("jvmfit-metrics") {
          @Override
          public boolean checkCredentials(String user, String pass) {
            // Constant time, so that timing tells another local user nothing.
            return "jvmfit".equals(user)
                && MessageDigest.isEqual(password, pass.getBytes(StandardCharsets.UTF_8));
          }
        })
        .buildAndStart();
    writeAtomically(a.portFile(), Integer.toString(server.getPort()));
  }

  /** Writes text to path through a temporary file beside it, so a reader never sees half. */
  static void writeAtomically(Path path, String text) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, ".port", ".tmp");
    try {
      Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}

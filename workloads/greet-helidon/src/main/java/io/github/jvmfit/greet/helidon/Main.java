package io.github.jvmfit.greet.helidon;

import io.helidon.config.Config;
import io.helidon.http.Status;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import java.util.Map;

/**
 * GET /api/greeting?name=N answers {"message":"hello, N"}; GET /observe/health
 * (the observe feature, found on the class path) answers 204 when up.
 */
public final class Main {
    private static final JsonBuilderFactory JSON = Json.createBuilderFactory(Map.of());

    private Main() {
    }

    public static void main(String[] args) {
        LogConfig.configureRuntime();
        Config config = Config.create();
        Config.global(config);
        // server.port comes from application.yaml, SERVER_PORT overrides it (what jvmfit init writes).
        WebServer server = WebServer.builder()
                .config(config.get("server"))
                .routing(Main::routing)
                .build()
                .start();
        System.out.println("READY on port " + server.port());
    }

    static void routing(HttpRouting.Builder routing) {
        routing.get("/api/greeting", (req, res) -> {
            String name = req.query().first("name").orElse("world");
            res.status(Status.OK_200).send(JSON.createObjectBuilder().add("message", "hello, " + name).build());
        });
    }
}

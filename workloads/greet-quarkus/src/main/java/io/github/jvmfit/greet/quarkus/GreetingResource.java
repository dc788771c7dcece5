package io.github.jvmfit.greet.quarkus;

import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** GET /api/greeting?name=N answers {"message":"hello, N"}; GET /q/health/ready is readiness. */
@Path("/api/greeting")
public class GreetingResource {
    public record Greeting(String message) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Greeting greet(@QueryParam("name") @DefaultValue("world") String name) {
        return new Greeting("hello, " + name);
    }
}

package io.github.jvmfit.greet.quarkusmgmt;

import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * GET /greet/api/greeting?name=N answers {"message":"hello, N"}; readiness is
 * GET /q/health/ready on the management interface's port.
 */
@Path("/api/greeting")
public class GreetingResource {
    public record Greeting(String message) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Greeting greet(@QueryParam("name") @DefaultValue("world") String name) {
        return new Greeting("hello, " + name);
    }
}

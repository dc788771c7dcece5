package io.github.jvmfit.greet.quarkus;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class GreetingResourceTest {
    @Test
    void greetsAsJson() {
        given().queryParam("name", "jvmfit").when().get("/api/greeting")
                .then().statusCode(200)
                .header("Content-Type", startsWith("application/json"))
                .body("message", equalTo("hello, jvmfit"));
    }

    @Test
    void greetsTheWorldWithoutAName() {
        given().when().get("/api/greeting").then().statusCode(200).body("message", equalTo("hello, world"));
    }

    @Test
    void readinessIsUp() {
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsHaveTheJvmMeters() {
        given().when().get("/q/metrics").then().statusCode(200)
                .body(containsString("jvm_memory_used_bytes{area=\"nonheap\",id=\"Metaspace\""))
                .body(containsString("jvm_threads_peak_threads"));
    }
}

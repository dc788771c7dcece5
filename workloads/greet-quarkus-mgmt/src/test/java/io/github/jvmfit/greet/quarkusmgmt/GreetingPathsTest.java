package io.github.jvmfit.greet.quarkusmgmt;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.net.URL;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class GreetingPathsTest {
    @TestHTTPResource("/api/greeting")
    URL greeting;

    // Resolved under the management interface's root path, /q.
    @TestHTTPResource(value = "/health/ready", management = true)
    URL ready;

    @TestHTTPResource("/q/health/ready")
    URL readyOnAppPort;

    @Test
    void greetsUnderTheRootPath() {
        // TestHTTPResource resolves against quarkus.http.root-path.
        org.junit.jupiter.api.Assertions.assertTrue(greeting.getPath().startsWith("/greet/"), greeting.toString());
        given().queryParam("name", "jvmfit").when().get(greeting)
                .then().statusCode(200).body("message", equalTo("hello, jvmfit"));
    }

    @Test
    void readinessIsOnTheManagementPort() {
        org.junit.jupiter.api.Assertions.assertNotEquals(greeting.getPort(), ready.getPort());
        org.junit.jupiter.api.Assertions.assertEquals("/q/health/ready", ready.getPath());
        given().when().get(ready).then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void noHealthOnTheAppPort() {
        given().when().get(readyOnAppPort).then().statusCode(404);
    }
}

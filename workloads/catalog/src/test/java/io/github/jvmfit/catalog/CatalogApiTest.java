package io.github.jvmfit.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Categories, suppliers, reviews and the health endpoint. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CatalogApiTest {
    @LocalServerPort
    int port;
    Api api;

    @BeforeEach
    void client() {
        api = new Api(port);
    }

    @Test
    void healthIsUpWithTheDatabase() throws Exception {
        Api.Answer a = api.get("/actuator/health");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().get("status").asText()).isEqualTo("UP");
        assertThat(a.json().at("/components/db/details/database").asText()).isEqualTo("H2");
    }

    @Test
    void categoryCreateReadRenameAndDuplicate() throws Exception {
        Api.Answer created = api.post("/api/categories", "{\"name\": \"Test tools\", \"description\": \"t\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String where = created.location();
        assertThat(api.get(where).json().get("name").asText()).isEqualTo("Test tools");

        // The cached copy is evicted on update: the read after it sees the new name.
        assertThat(api.put(where, "{\"name\": \"Test tools 2\"}").status()).isEqualTo(200);
        assertThat(api.get(where).json().get("name").asText()).isEqualTo("Test tools 2");

        assertThat(api.post("/api/categories", "{\"name\": \"category 1\"}").status()).isEqualTo(409);
        assertThat(api.post("/api/categories", "{\"name\": \"\"}").status()).isEqualTo(400);
        assertThat(api.get("/api/categories/987654").status()).isEqualTo(404);
        assertThat(api.get("/api/categories?q=test%20tools").json().at("/page/totalElements").asLong()).isEqualTo(1);
    }

    @Test
    void suppliersValidateCountryAndEmailAndFilterByCountry() throws Exception {
        Api.Answer bad = api.post("/api/suppliers", "{\"name\": \"S\", \"email\": \"nope\", \"country\": \"japan\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("fields").fieldNames()).toIterable().containsExactlyInAnyOrder("email", "country");

        Api.Answer created = api.post("/api/suppliers", "{\"name\": \"S\", \"email\": \"s-test@example.com\", \"country\": \"JP\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(api.get(created.location()).json().get("country").asText()).isEqualTo("JP");

        Api.Answer jp = api.get("/api/suppliers?country=jp&size=100");
        assertThat(jp.json().get("content")).isNotEmpty();
        jp.json().get("content").forEach(s -> assertThat(s.get("country").asText()).isEqualTo("JP"));
        assertThat(api.get("/api/suppliers/987654").status()).isEqualTo(404);
    }

    @Test
    void reviewsAddUpInTheProductsRating() throws Exception {
        long product = api.post("/api/products", """
                {"sku": "T-REVIEW-1", "name": "Reviewed", "priceCents": 1, "stock": 1, "categoryId": 1, "supplierId": 1}""")
                .json().get("id").asLong();
        Api.Answer first = api.post("/api/products/" + product + "/reviews", "{\"author\": \"a\", \"rating\": 5}");
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(api.post("/api/products/" + product + "/reviews", "{\"author\": \"b\", \"rating\": 2}").status())
                .isEqualTo(201);

        assertThat(api.get(first.location()).json().get("rating").asInt()).isEqualTo(5);
        Api.Answer p = api.get("/api/products/" + product);
        assertThat(p.json().at("/rating/count").asLong()).isEqualTo(2);
        assertThat(p.json().at("/rating/average").asDouble()).isEqualTo(3.5);
        assertThat(api.get("/api/products/" + product + "/reviews").json().get("content")).hasSize(2);
    }

    @Test
    void badReviewsAre400AndUnknownProductsAre404() throws Exception {
        Api.Answer six = api.post("/api/products/1/reviews", "{\"author\": \"a\", \"rating\": 6}");
        assertThat(six.status()).isEqualTo(400);
        assertThat(six.json().get("fields").has("rating")).isTrue();
        assertThat(api.post("/api/products/987654/reviews", "{\"author\": \"a\", \"rating\": 3}").status()).isEqualTo(404);
        assertThat(api.get("/api/products/987654/reviews").status()).isEqualTo(404);
        assertThat(api.get("/api/reviews/987654").status()).isEqualTo(404);
    }

    @Test
    void topRatedIsComputedFromTheSeededReviews() throws Exception {
        Api.Answer a = api.get("/api/reviews/top-rated");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json()).hasSize(20);
        double previous = 5;
        for (var row : a.json()) {
            assertThat(row.get("count").asLong()).isGreaterThanOrEqualTo(3);
            assertThat(row.get("average").asDouble()).isLessThanOrEqualTo(previous);
            previous = row.get("average").asDouble();
        }
    }
}

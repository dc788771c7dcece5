package io.github.jvmfit.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ProductApiTest {
    @LocalServerPort
    int port;
    Api api;

    @BeforeEach
    void client() {
        api = new Api(port);
    }

    @Test
    void seededProductsArePagedWithTheirCategoryAndSupplier() throws Exception {
        Api.Answer a = api.get("/api/products?page=1&size=25");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        assertThat(a.json().get("content")).hasSize(25);
        assertThat(a.json().at("/content/0/id").asLong()).isEqualTo(26);
        assertThat(a.json().at("/content/0/category/name").asText()).startsWith("Category ");
        assertThat(a.json().at("/page/totalElements").asLong()).isGreaterThanOrEqualTo(5000);
    }

    @Test
    void pageSizeIsCappedAndUnknownSortIsRefused() throws Exception {
        assertThat(api.get("/api/products?size=5000").json().get("content").size()).isEqualTo(100);
        Api.Answer a = api.get("/api/products?sort=password");
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(a.json().get("detail").asText()).contains("cannot sort by 'password'");
    }

    @Test
    void createThenReadThenReplace() throws Exception {
        Api.Answer created = api.post("/api/products", """
                {"sku": "T-CREATE-1", "name": "Test teapot", "description": "for the test",
                 "priceCents": 2599, "stock": 7, "categoryId": 3, "supplierId": 4}""");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        long id = created.json().get("id").asLong();
        assertThat(created.location()).isEqualTo("/api/products/" + id);

        Api.Answer read = api.get("/api/products/" + id);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("name").asText()).isEqualTo("Test teapot");
        assertThat(read.json().at("/category/id").asLong()).isEqualTo(3);
        assertThat(read.json().at("/rating/count").asLong()).isZero();

        Api.Answer replaced = api.put("/api/products/" + id, """
                {"name": "Test teapot, large", "priceCents": 3100, "stock": 2, "categoryId": 5, "supplierId": 4}""");
        assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
        JsonNode again = api.get("/api/products/" + id).json();
        assertThat(again.get("priceCents").asLong()).isEqualTo(3100);
        assertThat(again.at("/category/id").asLong()).isEqualTo(5);
    }

    @Test
    void invalidBodyIs400WithOneMessagePerField() throws Exception {
        Api.Answer a = api.post("/api/products", """
                {"sku": "lower case", "name": " ", "priceCents": -1, "stock": 1, "categoryId": 1}""");
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(a.json().get("fields").fieldNames()).toIterable()
                .containsExactlyInAnyOrder("sku", "name", "priceCents", "supplierId");
    }

    @Test
    void malformedJsonAndUnknownReferencesAre400() throws Exception {
        assertThat(api.post("/api/products", "{\"sku\": ").status()).isEqualTo(400);
        Api.Answer a = api.post("/api/products", """
                {"sku": "T-BADREF", "name": "x", "priceCents": 1, "stock": 1, "categoryId": 999999, "supplierId": 1}""");
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(a.json().get("detail").asText()).isEqualTo("categoryId 999999 does not exist");
    }

    @Test
    void duplicateSkuIs409() throws Exception {
        Api.Answer a = api.post("/api/products", """
                {"sku": "SKU-00001", "name": "copy", "priceCents": 1, "stock": 1, "categoryId": 1, "supplierId": 1}""");
        assertThat(a.status()).as(a.body()).isEqualTo(409);
    }

    @Test
    void unknownProductIs404AsAProblem() throws Exception {
        Api.Answer a = api.get("/api/products/987654");
        assertThat(a.status()).isEqualTo(404);
        assertThat(a.json().get("detail").asText()).isEqualTo("product 987654 not found");
        assertThat(api.put("/api/products/987654", """
                {"name": "x", "priceCents": 1, "stock": 1, "categoryId": 1, "supplierId": 1}""").status()).isEqualTo(404);
        assertThat(api.get("/api/products/abc").status()).isEqualTo(400);
    }

    @Test
    void searchMatchesTextAndFiltersTogether() throws Exception {
        Api.Answer a = api.get("/api/products/search?q=LAMP&categoryId=7&maxPriceCents=60000&size=100");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        JsonNode content = a.json().get("content");
        assertThat(content).isNotEmpty();
        for (JsonNode p : content) {
            assertThat(p.get("name").asText()).containsIgnoringCase("lamp");
            assertThat(p.at("/category/id").asLong()).isEqualTo(7);
            assertThat(p.get("priceCents").asLong()).isLessThanOrEqualTo(60000);
        }
        assertThat(a.json().get("hasNext").asBoolean()).isFalse();
        Api.Answer none = api.get("/api/products/search?q=no-such-thing");
        assertThat(none.json().get("content")).isEmpty();
        Api.Answer sku = api.get("/api/products/search?q=SKU-00042");
        assertThat(sku.json().get("content")).hasSize(1);
        assertThat(sku.json().at("/content/0/id").asLong()).isEqualTo(42);
    }

    @Test
    void searchRefusesANegativePrice() throws Exception {
        Api.Answer a = api.get("/api/products/search?minPriceCents=-5");
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(a.json().get("fields").has("minPriceCents")).isTrue();
    }
}

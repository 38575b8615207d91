package com.example.catalog;

import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The catalog over HTTP. */
@RestController
public class ProductController {
  private final ProductService products;

  public ProductController(ProductService products) {
    this.products = products;
  }

  @GetMapping("/products/{id}")
  public Product find(@PathVariable("id") long id) {
    return products.find(id);
  }

  @GetMapping("/products/{id}/price")
  public long price(@PathVariable("id") long id) {
    return products.price(id);
  }

  @GetMapping("/products")
  public ResponseEntity<Product> byName(@RequestParam("name") String name) {
    Product found = products.byName(name);
    return found == null ? ResponseEntity.notFound().build() : ResponseEntity.ok(found);
  }

  @PutMapping("/products/{id}")
  public Product rename(@PathVariable("id") long id, @RequestParam("name") String name) {
    return products.rename(id, name);
  }

  @DeleteMapping("/products/{id}")
  public void delete(@PathVariable("id") long id) {
    products.delete(id);
  }

  @PostMapping("/products/reload")
  public void reload() {
    products.reload();
  }

  @GetMapping("/body-runs")
  public Map<String, Integer> bodyRuns() {
    return products.bodyRuns();
  }
}

package com.example.shop;

import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The shop over HTTP. */
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

  @GetMapping("/products")
  public List<Product> tagged(@RequestParam("tag") String tag) {
    return products.tagged(tag);
  }

  @DeleteMapping("/products/{id}")
  public void delete(@PathVariable("id") long id) {
    products.delete(id);
  }

  @GetMapping("/body-runs")
  public Map<String, Integer> bodyRuns() {
    return products.bodyRuns();
  }
}

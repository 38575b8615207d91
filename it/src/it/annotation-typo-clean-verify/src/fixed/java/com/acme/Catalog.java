package com.acme;

import io.github.chash.aspect.ShardedCacheable;

public class Catalog {
  @ShardedCacheable(cache = "products", key = "#sku")
  public String product(String sku) {
    return "product " + sku;
  }
}

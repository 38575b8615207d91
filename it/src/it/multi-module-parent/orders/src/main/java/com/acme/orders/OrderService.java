package com.acme.orders;

import io.github.chash.aspect.ShardedCacheable;

public class OrderService {
  @ShardedCacheable(cache = "orders", key = "#id")
  public String find(long id) {
    return "order " + id;
  }
}

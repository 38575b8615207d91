package com.acme;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCacheable;

public class OrderService {

  @ShardedCacheable(cache = "orders", key = "#customer + ':' + #year")
  public String summary(String customer, int year) {
    return customer + year;
  }

  @ShardedCacheable(cache = "invoices", key = "#customer")
  public String invoices(String customer) {
    return customer;
  }

  @ShardedCacheEvict(cache = "users", key = "#custmer")
  public void rename(String customer, String newName) {}
}

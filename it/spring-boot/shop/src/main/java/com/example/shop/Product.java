package com.example.shop;

import java.time.Instant;
import java.util.List;

/** A product: a plain record, not Serializable. */
public record Product(long id, String name, long priceCents, List<String> tags, Instant added) {}

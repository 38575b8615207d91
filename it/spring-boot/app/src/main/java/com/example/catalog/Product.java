package com.example.catalog;

import java.io.Serializable;

/** A product as the catalog stores it. */
public record Product(long id, String name, long priceCents) implements Serializable {}

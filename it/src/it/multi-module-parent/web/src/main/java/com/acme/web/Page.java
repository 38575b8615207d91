package com.acme.web;

/** A module that does not cache: no chash.yaml. */
public class Page {}

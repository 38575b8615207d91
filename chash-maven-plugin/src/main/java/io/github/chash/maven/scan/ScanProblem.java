package io.github.chash.maven.scan;

/**
 * One problem of one annotated method.
 *
 * @param className the binary name of the class, e.g. {@code com.acme.OrderService}
 * @param method the method with its parameter types, e.g. {@code find(String, int)}
 * @param message what is wrong, lower-case, naming the bad value
 */
public record ScanProblem(String className, String method, String message) {

  /** {@code com.acme.OrderService.find(String): message}, one line. */
  @Override
  public String toString() {
    return className + "." + method + ": " + message;
  }
}

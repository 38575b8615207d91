package io.github.chash.maven;

import java.util.Comparator;

/**
 * Orders node ids as a person reads them: runs of digits by their value, so {@code cache-2} comes
 * before {@code cache-10}, and {@code 10.0.0.9:6379} before {@code 10.0.0.10:6379}. Ids equal but
 * for leading zeros, or for case, fall back to plain string order, so the order is total.
 * Stateless.
 */
final class NaturalOrder implements Comparator<String> {
  /** The one instance. */
  static final NaturalOrder INSTANCE = new NaturalOrder();

  private NaturalOrder() {}

  @Override
  public int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char x = a.charAt(i);
      char y = b.charAt(j);
      if (isDigit(x) && isDigit(y)) {
        int endA = digitsEnd(a, i);
        int endB = digitsEnd(b, j);
        int c = compareNumbers(a, skipZeros(a, i, endA), endA, b, skipZeros(b, j, endB), endB);
        if (c != 0) {
          return c;
        }
        i = endA;
        j = endB;
      } else {
        if (x != y) {
          return Character.compare(x, y);
        }
        i++;
        j++;
      }
    }
    if (i < a.length() || j < b.length()) {
      return i < a.length() ? 1 : -1;
    }
    return a.compareTo(b);
  }

  /** Compares two digit runs without leading zeros: the longer is larger, else digit by digit. */
  private static int compareNumbers(String a, int i, int endA, String b, int j, int endB) {
    int lengths = Integer.compare(endA - i, endB - j);
    if (lengths != 0) {
      return lengths;
    }
    for (; i < endA; i++, j++) {
      int c = Character.compare(a.charAt(i), b.charAt(j));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static int digitsEnd(String s, int from) {
    int end = from;
    while (end < s.length() && isDigit(s.charAt(end))) {
      end++;
    }
    return end;
  }

  private static int skipZeros(String s, int from, int end) {
    while (from < end - 1 && s.charAt(from) == '0') {
      from++;
    }
    return from;
  }
}

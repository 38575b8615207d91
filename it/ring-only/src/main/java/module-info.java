/** A ring-only user: which cache server holds a key, nothing more. */
module io.github.chash.it.ringonly {
  requires io.github.chash.ring;

  exports io.github.chash.it.ringonly;
}

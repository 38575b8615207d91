package io.github.chash.membership;

/** A membership source driven by a test: its listener is called by hand. */
public final class HandSource implements MembershipSource {
  /** The follower's listener, once started. */
  public MembershipListener listener;

  @Override
  public String describe() {
    return "hand";
  }

  @Override
  public void start(MembershipListener listener) {
    this.listener = listener;
  }

  @Override
  public void close() {}
}

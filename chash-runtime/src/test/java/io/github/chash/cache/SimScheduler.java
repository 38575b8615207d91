package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The deterministic scheduler of one simulation run: a sim clock, a queue of events ordered by (sim
 * time, a rank drawn from the seed, actor, sequence), and logical threads ("actors") that are real
 * Java threads of which only one runs at a time.
 *
 * <p>An actor runs until it reaches a yield point ({@link #sleepUntil}: a sim node call waiting for
 * its reply, a loader reading the database, the pause between two operations), where it parks and
 * hands control back. The scheduler takes the earliest event, moves the clock to it and either runs
 * it on its own thread (an event of the simulated world: a request applied on a server, a fault) or
 * resumes the actor it belongs to, then waits until that actor has settled again: parked at a yield
 * point, finished, or blocked inside the real code (a sync load waiting for another caller's load
 * in {@code InFlightLoads}). Such a blocked actor is released by the load's owner right before that
 * owner's operation returns; the owner then names its keys ({@link #opReturned}) and the scheduler
 * waits for the released actors to park too, so that no two actors ever run unsupervised at once.
 *
 * <p>Nothing depends on OS scheduling as long as the real code blocks only that way; a watchdog
 * fails the run (naming the seed) when an actor neither settles nor the queue moves on.
 */
final class SimScheduler {
  /** How long (wall time) an actor may run between two yield points before the run fails. */
  private static final long WATCHDOG_NANOS = 20_000_000_000L;

  /** How long (wall time) to wait for a released joiner to wake before deciding it was not. */
  private static final long RELEASE_WAIT_NANOS = 200_000_000L;

  /** The sim clock; the manager's {@code Ticker}. */
  static final class Clock implements Ticker {
    private volatile long nanos = 1_000_000_000L; // not 0: some code treats 0 as "never"

    @Override
    public long read() {
      return nanos;
    }

    void set(long t) {
      nanos = t;
    }
  }

  private record Event(long time, int rank, int actor, long seq, Runnable action)
      implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      int c = Long.compare(time, o.time);
      if (c == 0) c = Integer.compare(rank, o.rank);
      if (c == 0) c = Integer.compare(actor, o.actor);
      if (c == 0) c = Long.compare(seq, o.seq);
      return c;
    }
  }

  /** A logical thread. */
  final class Actor {
    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int PARKED = 2;
    static final int DONE = 3;

    final int index;
    final String name;
    final SplittableRandom random;
    final Object parker = new Object();
    private final Runnable body;
    private Thread thread;
    volatile int state = NEW;
    volatile boolean go;

    /** Set by the scheduler when the actor blocked inside the real code. */
    volatile boolean blockedInCode;

    /** The keys of the operation the actor is running (for releasing joiners). */
    volatile List<String> opKeys = List.of();

    /** Keys of the operation that just returned; read by the scheduler once the actor settles. */
    volatile List<String> returnedKeys = List.of();

    private long seq;
    volatile Throwable failure;

    Actor(int index, String name, Runnable body) {
      this.index = index;
      this.name = name;
      this.random = new SplittableRandom(mix(seed, index + 1));
      this.body = body;
    }

    private void start() {
      thread =
          new Thread(
              () -> {
                CURRENT.set(this);
                try {
                  awaitGo();
                  body.run();
                } catch (Stop stop) {
                  // the run was abandoned
                } catch (Throwable t) {
                  failure = t;
                } finally {
                  state = DONE;
                  LockSupport.unpark(schedulerThread);
                }
              },
              "sim-" + seed + "-" + name);
      thread.setDaemon(true);
      thread.start();
    }

    private void awaitGo() {
      while (!go) {
        LockSupport.park(parker);
        if (abandoned) {
          throw new Stop();
        }
      }
      go = false;
    }
  }

  /** Thrown in actors when the run is abandoned (watchdog). */
  static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(null, null, false, false);
    }
  }

  private static final ThreadLocal<Actor> CURRENT = new ThreadLocal<>();

  final long seed;
  final Clock clock = new Clock();

  /** The scheduler's own stream: faults and the world's events. */
  final SplittableRandom random;

  private final PriorityQueue<Event> queue = new PriorityQueue<>();
  private final List<Actor> actors = new ArrayList<>();
  private long worldSeq;
  private Thread schedulerThread;
  private volatile boolean abandoned;
  private long steps;
  private long lateWakes;

  /**
   * Whether a thread waiting for a key stripe is still held back by another actor's fill ({@link
   * KeyStripes#holdsBack}); set by the run once its manager exists.
   */
  volatile java.util.function.Predicate<Thread> heldBack = t -> true;

  /**
   * Holds back the threads that wait on a key stripe of cache {@code users} in any of the managers
   * (the list as it is when asked: a run may add managers as JVMs restart).
   */
  void holdBackStripesOf(List<RingCacheManager> managers) {
    heldBack =
        thread -> {
          for (RingCacheManager manager : managers) {
            if (((RoutedCache) manager.cache("users")).stripes().holdsBack(thread)) {
              return true;
            }
          }
          return false;
        };
  }

  SimScheduler(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(mix(seed, 0));
  }

  static long mix(long seed, long stream) {
    long z = seed * 0x9E3779B97F4A7C15L + stream * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  long now() {
    return clock.read();
  }

  Actor actor(String name, Runnable body) {
    Actor a = new Actor(actors.size(), name, body);
    actors.add(a);
    return a;
  }

  /** The actor running the calling thread; fails on any other thread. */
  Actor current() {
    Actor a = CURRENT.get();
    if (a == null) {
      throw new IllegalStateException("a sim call outside of an actor: " + Thread.currentThread());
    }
    return a;
  }

  /** Schedules an event of the world (run on the scheduler's thread) at sim time {@code t}. */
  synchronized void at(long t, Runnable action) {
    Actor a = CURRENT.get();
    if (a != null) {
      queue.add(new Event(t, a.random.nextInt(), a.index, a.seq++, action));
    } else {
      queue.add(new Event(t, random.nextInt(), -1, worldSeq++, action));
    }
  }

  /** Parks the calling actor until sim time {@code t} (at least now). */
  void sleepUntil(long t) {
    Actor a = current();
    synchronized (this) {
      queue.add(new Event(Math.max(t, now()), a.random.nextInt(), a.index, a.seq++, null));
    }
    a.state = Actor.PARKED;
    LockSupport.unpark(schedulerThread);
    a.awaitGo();
  }

  void sleep(long nanos) {
    sleepUntil(now() + nanos);
  }

  /** The calling actor's operation returned: joiners of its keys may have been released. */
  void opReturned(List<String> keys) {
    current().returnedKeys = keys;
  }

  /** If the calling actor blocked in the real code during its operation, it parks first. */
  void afterPossibleJoin() {
    Actor a = current();
    if (a.blockedInCode) {
      sleepUntil(now());
    }
  }

  long steps() {
    return steps;
  }

  long lateWakes() {
    return lateWakes;
  }

  /**
   * Runs the actors to the end: until every actor is done. Events of the world left in the queue
   * are dropped. Fails (naming the seed) on a watchdog timeout or an actor's exception.
   */
  void run() {
    schedulerThread = Thread.currentThread();
    for (Actor a : actors) {
      a.start();
      synchronized (this) {
        queue.add(new Event(now(), random.nextInt(), a.index, a.seq++, null));
      }
    }
    try {
      while (true) {
        checkLateWakes();
        if (allDone()) {
          break;
        }
        Event e;
        synchronized (this) {
          e = queue.poll();
        }
        if (e == null) {
          throw new IllegalStateException(
              "seed " + seed + ": deadlock: no event left, actors " + describe());
        }
        if (e.time > now()) {
          clock.set(e.time);
        }
        steps++;
        if (e.action != null) {
          e.action.run();
          continue;
        }
        Actor a = actors.get(e.actor);
        if (a.state == Actor.DONE) {
          continue;
        }
        resume(a);
        settle(a);
        releaseJoiners(a);
        releaseStripeWaiters();
      }
      for (Actor a : actors) {
        if (a.failure != null) {
          throw new IllegalStateException(
              "seed " + seed + ": actor " + a.name + " failed: " + a.failure, a.failure);
        }
      }
    } finally {
      abandon();
    }
  }

  private void resume(Actor a) {
    a.blockedInCode = false;
    a.state = Actor.RUNNING;
    a.go = true;
    LockSupport.unpark(a.thread);
  }

  /** Waits until the actor parked at a yield point, finished, or blocked in the real code. */
  private void settle(Actor a) {
    long deadline = System.nanoTime() + WATCHDOG_NANOS;
    int spins = 0;
    while (true) {
      int s = a.state;
      if (s == Actor.PARKED || s == Actor.DONE) {
        return;
      }
      if (spins < 64) {
        spins++;
        Thread.onSpinWait();
        continue;
      }
      Thread.State ts = a.thread.getState();
      if ((ts == Thread.State.WAITING
              || ts == Thread.State.BLOCKED
              || ts == Thread.State.TIMED_WAITING)
          && LockSupport.getBlocker(a.thread) != a.parker
          && a.state == Actor.RUNNING
          && waitsForAnotherActor(a)
          && (!waitsForStripe(a) || heldBack.test(a.thread))) {
        a.blockedInCode = true;
        return;
      }
      // the actor unparks us when it parks or finishes; the timeout is for blocking in the code
      LockSupport.parkNanos(this, 500_000);
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "seed " + seed + ": watchdog: actor " + a.name + " did not settle; " + describe());
      }
    }
  }

  /**
   * Whether a blocked actor waits for another actor: a sync load joined another caller's load
   * ({@code InFlightLoads.await}), a write waits for a fill of its key's stripe ({@code
   * KeyStripes}), or a monitor is held (by an actor waiting at a yield point: the membership's lock
   * during a change). Any other wait (a parallel stream of the real code) is work that finishes on
   * its own, and the scheduler waits for it.
   */
  private static boolean waitsForAnotherActor(Actor a) {
    if (a.thread.getState() == Thread.State.BLOCKED) {
      return true; // a monitor another actor holds while it waits at a yield point
    }
    for (StackTraceElement e : a.thread.getStackTrace()) {
      String c = e.getClassName();
      if (c.equals(InFlightLoads.class.getName()) || c.equals(KeyStripes.class.getName())) {
        return true;
      }
    }
    return false;
  }

  /** After an actor's operation returned, waits for the callers that joined its load to park. */
  private void releaseJoiners(Actor owner) {
    List<String> keys = owner.returnedKeys;
    if (keys.isEmpty()) {
      return;
    }
    owner.returnedKeys = List.of();
    for (Actor j : actors) {
      if (j == owner || !j.blockedInCode || j.state != Actor.RUNNING) {
        continue;
      }
      boolean shares = false;
      for (String k : j.opKeys) {
        shares |= keys.contains(k);
      }
      if (!shares) {
        continue;
      }
      long deadline = System.nanoTime() + RELEASE_WAIT_NANOS;
      while (j.state == Actor.RUNNING && System.nanoTime() - deadline < 0) {
        LockSupport.parkNanos(10_000);
      }
      if (j.state == Actor.RUNNING) {
        continue; // it joined another load of the key; still blocked
      }
      settle(j);
      j.blockedInCode = false;
    }
  }

  private static boolean waitsForStripe(Actor a) {
    for (StackTraceElement e : a.thread.getStackTrace()) {
      if (e.getClassName().equals(KeyStripes.class.getName())) {
        return true;
      }
    }
    return false;
  }

  /**
   * After a step: a writer that waited for a fill's stripe, which the step released, is about to
   * run; wait for it to settle now, before anything else moves, so the order stays the seed's.
   */
  private void releaseStripeWaiters() {
    for (Actor j : actors) {
      if (j.blockedInCode
          && j.state == Actor.RUNNING
          && waitsForStripe(j)
          && !heldBack.test(j.thread)) {
        j.blockedInCode = false;
        settle(j);
      }
    }
  }

  /** An actor blocked in the code that woke without us waiting for it: determinism is at risk. */
  private void checkLateWakes() {
    for (Actor j : actors) {
      if (j.blockedInCode && j.state != Actor.RUNNING) {
        lateWakes++;
        j.blockedInCode = false;
      } else if (j.blockedInCode && j.thread.getState() == Thread.State.RUNNABLE) {
        lateWakes++;
        settle(j);
      }
    }
  }

  private boolean allDone() {
    for (Actor a : actors) {
      if (a.state != Actor.DONE) {
        return false;
      }
    }
    return true;
  }

  private String describe() {
    StringBuilder b = new StringBuilder();
    for (Actor a : actors) {
      b.append(a.name)
          .append('=')
          .append(a.state)
          .append(a.blockedInCode ? "(blocked)" : "")
          .append(' ');
      if (a.thread != null && a.state == Actor.RUNNING) {
        for (StackTraceElement el : a.thread.getStackTrace()) {
          b.append("\n    at ").append(el);
        }
      }
    }
    return b.toString();
  }

  /** Stops the actors still parked (after a failure). */
  private void abandon() {
    abandoned = true;
    for (Actor a : actors) {
      if (a.thread != null && a.state != Actor.DONE) {
        LockSupport.unpark(a.thread);
        if (a.blockedInCode) {
          a.thread.interrupt();
        }
      }
    }
  }
}

package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlVersionException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Composes YAML text into a node tree whose every node carries its position, within limits that
 * keep hostile input cheap: size, nesting depth and aliases. Every failure becomes a located
 * problem, never another exception.
 */
final class YamlComposer {
  /** Largest accepted file, in characters: a thousand nodes take about 100 KB. */
  static final int MAX_CHARS = 2 * 1024 * 1024;

  /** Deepest accepted nesting of lists and mappings; chash.yaml needs 4. */
  static final int MAX_DEPTH = 64;

  /** Most aliases accepted in one file; bounds "billion laughs" expansions. */
  static final int MAX_ALIASES = 50;

  /**
   * Most nodes all aliases together may stand for, counting what an alias inside an anchor repeats
   * each time that anchor is used; bounds what merge keys copy and what readers walk again.
   */
  static final int MAX_ALIASED_NODES = 10_000;

  private static final Set<String> CORE_TAGS =
      Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.MAP, Tag.SEQ).stream()
          .map(Tag::getValue)
          .collect(Collectors.toUnmodifiableSet());

  private YamlComposer() {}

  /**
   * Composes the single document of {@code yaml}, or adds a problem and returns empty (also for an
   * empty file, with its own message).
   */
  static Optional<Node> compose(String yaml, Problems problems) {
    if (yaml.length() > MAX_CHARS) {
      problems.at(1, 1, tooLarge(yaml.length() + " characters"));
      return Optional.empty();
    }
    String text = yaml.startsWith("\uFEFF") ? yaml.substring(1) : yaml;
    LoadSettings settings =
        LoadSettings.builder()
            .setLabel(problems.file())
            .setCodePointLimit(MAX_CHARS)
            .setMaxAliasesForCollections(MAX_ALIASES)
            .setAllowRecursiveKeys(false)
            .setAllowNonScalarKeys(true) // reported by the reader, with a location
            .setSchema(new CoreSchema()) // YAML 1.2 core: ~, null and nothing are null
            .setUseMarks(true)
            // The whole text in one read: StreamReader copies its window each time it reads a
            // buffer more, so a token spanning k buffers cost k copies of itself (a 2 MB scalar
            // allocated 7.4 GB in 1.5 s, found by ConfigFuzzTest). Read at once, it is one copy.
            .setBufferSize(text.length() + 1)
            .build();
    StreamReader reader = new StreamReader(settings, text);
    try {
      Parser parser = new LimitingParser(new ParserImpl(settings, reader));
      Optional<Node> root = new Composer(settings, parser).getSingleNode();
      if (root.isEmpty()) {
        problems.at(1, 1, "file is empty; expected a mapping with at least `nodes`");
      }
      return root;
    } catch (LimitException e) {
      problems.at(e.mark, e.getMessage());
    } catch (NumberFormatException e) {
      // SnakeYAML Engine parses the hexadecimal digits of an escape (x, u or U after a
      // backslash) with Integer.parseInt, which throws, without a mark, for an escape cut by the
      // end of the file or above int range, as "\\UFFFFFFFF" (found by ConfigFuzzTest): the
      // reader stopped there.
      problems.at(
          reader.getLine() + 1,
          reader.getColumn() + 1,
          "invalid YAML: an escape \\x, \\u or \\U needs 2, 4 or 8 hexadecimal digits of a"
              + " Unicode code point");
    } catch (MarkedYamlEngineException e) {
      Optional<Mark> mark =
          e.getProblemMark().isPresent() ? e.getProblemMark() : e.getContextMark();
      problems.at(mark, "invalid YAML: " + describe(e));
    } catch (ReaderException e) {
      int[] at = lineAndColumn(text, e.getPosition());
      problems.at(
          at[0],
          at[1],
          String.format("invalid YAML: character U+%04X is not allowed", e.getCodePoint()));
    } catch (YamlVersionException e) {
      problems.at(
          1,
          1,
          "invalid YAML: version "
              + e.getSpecVersion().getRepresentation()
              + " is not supported; omit %YAML or use 1.2");
    } catch (YamlEngineException e) {
      problems.at(1, 1, "invalid YAML: " + lowerFirst(String.valueOf(e.getMessage())));
    } catch (StackOverflowError e) {
      // The limits above should prevent this; a config error must still never escape as an Error.
      problems.at(1, 1, "invalid YAML: nesting too deep to read");
    }
    return Optional.empty();
  }

  /** 1-based line and column of a code point index. */
  private static int[] lineAndColumn(String text, int codePointIndex) {
    int line = 1;
    int column = 1;
    int i = 0;
    for (int cp = 0; cp < codePointIndex && i < text.length(); cp++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
      i += Character.charCount(text.codePointAt(i));
    }
    return new int[] {line, column};
  }

  static String tooLarge(String size) {
    return "file is too large: "
        + size
        + "; a chash.yaml may have at most "
        + MAX_CHARS
        + " characters";
  }

  private static String describe(MarkedYamlEngineException e) {
    String context = e.getContext();
    String problem = e.getProblem();
    if (problem != null && problem.contains("\\t(TAB)")) {
      return "a tab cannot start a token here (tabs cannot indent YAML); indent with spaces";
    }
    String text = context == null || context.isEmpty() ? problem : context + ": " + problem;
    return lowerFirst(text.replace('\n', ' ').trim());
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  /**
   * Stops parsing at the first collection nested too deep, alias too many or alias inside its own
   * anchor, before composing.
   */
  private static final class LimitingParser implements Parser {
    private final Parser delegate;
    private final OpenAnchors openAnchors = new OpenAnchors();
    private int depth;
    private int aliases;
    private long aliasedNodes;

    LimitingParser(Parser delegate) {
      this.delegate = delegate;
    }

    @Override
    public boolean checkEvent(Event.ID id) {
      return delegate.checkEvent(id);
    }

    @Override
    public Event peekEvent() {
      return delegate.peekEvent();
    }

    @Override
    public boolean hasNext() {
      return delegate.hasNext();
    }

    @Override
    public Event next() {
      Event event = delegate.next();
      rejectTags(event);
      switch (event.getEventId()) {
        case MappingStart:
        case SequenceStart:
          if (++depth > MAX_DEPTH) {
            throw new LimitException(
                event.getStartMark(), "nesting is deeper than " + MAX_DEPTH + " levels");
          }
          openAnchors.open(((NodeEvent) event).getAnchor());
          break;
        case MappingEnd:
        case SequenceEnd:
          depth--;
          openAnchors.close();
          break;
        case Scalar:
          openAnchors.scalar(((NodeEvent) event).getAnchor());
          break;
        case Alias:
          if (++aliases > MAX_ALIASES) {
            throw new LimitException(
                event.getStartMark(), "more than " + MAX_ALIASES + " aliases (*name)");
          }
          String name = ((AliasEvent) event).getAlias().getValue();
          if (openAnchors.isOpen(name)) {
            // SnakeYAML Engine loops forever merging such a mapping (<<: *self) into itself
            throw new LimitException(
                event.getStartMark(),
                "alias *"
                    + name
                    + " is inside its own anchor &"
                    + name
                    + "; a value cannot contain itself");
          }
          // Fifty aliases of a 100,000-entry mapping merged (<<: *a) into caches took 11 GB and
          // ran out of memory (found by ConfigFuzzTest): count what aliases stand for, with what
          // aliases inside their anchors repeat, and stop before anything is composed.
          aliasedNodes += openAnchors.alias(name);
          if (aliasedNodes > MAX_ALIASED_NODES) {
            throw new LimitException(
                event.getStartMark(),
                "aliases stand for more than "
                    + MAX_ALIASED_NODES
                    + " values in all (at *"
                    + name
                    + "); write large blocks out instead of repeating them");
          }
          break;
        default:
          break;
      }
      return event;
    }
  }

  /**
   * The anchors of the collections being parsed, and how many nodes each collection holds once its
   * aliases are expanded. An alias names the latest anchor of its name, so it is recursive exactly
   * when that latest definition is a collection not yet closed.
   */
  private static final class OpenAnchors {
    /** One per open collection, innermost first. */
    private final Deque<Frame> open = new ArrayDeque<>();

    /** Per anchor name, its latest definition. */
    private final Map<String, Definition> latest = new HashMap<>();

    void open(Optional<Anchor> anchor) {
      Frame frame = new Frame(anchor.map(a -> new Definition(true)).orElse(null));
      open.push(frame);
      if (frame.definition != null) {
        latest.put(anchor.get().getValue(), frame.definition);
      }
    }

    void close() {
      Frame frame = open.pop();
      if (frame.definition != null) {
        frame.definition.open = false;
        frame.definition.nodes = frame.nodes;
      }
      count(frame.nodes);
    }

    void scalar(Optional<Anchor> anchor) {
      anchor.ifPresent(a -> latest.put(a.getValue(), new Definition(false)));
      count(1);
    }

    /** Counts the alias where it stands and returns how many nodes it stands for. */
    long alias(String name) {
      Definition definition = latest.get(name);
      long nodes = definition == null ? 1 : definition.nodes;
      count(nodes);
      return nodes;
    }

    boolean isOpen(String name) {
      Definition definition = latest.get(name);
      return definition != null && definition.open;
    }

    private void count(long nodes) {
      Frame parent = open.peek();
      if (parent != null) {
        parent.nodes += nodes;
      }
    }

    /** An open collection: its anchor's definition, if any, and its nodes so far (itself too). */
    private static final class Frame {
      final Definition definition;
      long nodes = 1;

      Frame(Definition definition) {
        this.definition = definition;
      }
    }

    /** One definition of an anchor; identity tells an inner redefinition of a name apart. */
    private static final class Definition {
      boolean open;
      long nodes = 1;

      Definition(boolean open) {
        this.open = open;
      }
    }
  }

  /** Explicit tags ask for types chash does not have; only the core schema's own ones pass. */
  private static void rejectTags(Event event) {
    Optional<String> tag = Optional.empty();
    if (event instanceof ScalarEvent) {
      tag = ((ScalarEvent) event).getTag();
    } else if (event instanceof CollectionStartEvent) {
      tag = ((CollectionStartEvent) event).getTag();
    }
    if (tag.isPresent() && !CORE_TAGS.contains(tag.get())) {
      throw new LimitException(
          event.getStartMark(),
          "tag "
              + Quotes.quote(tag.get().replace(Tag.PREFIX, "!!"))
              + " is not supported; remove it");
    }
  }

  /** A limit of this class was hit; carries where. */
  private static final class LimitException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Optional<Mark> mark;

    LimitException(Optional<Mark> mark, String message) {
      super(message, null, false, false);
      this.mark = mark;
    }
  }
}

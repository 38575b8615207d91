package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class HtmlTest {

  @Test
  void textAndAttributes_areEscaped() {
    String html =
        new Html(64)
            .open("p", "title", "a\"<b>&", "class", null)
            .text("<script>x & y</script>")
            .close("p")
            .toString();
    assertThat(html)
        .isEqualTo("<p title=\"a&quot;&lt;b&gt;&amp;\">&lt;script&gt;x &amp; y&lt;/script&gt;</p>");
  }

  @Test
  void names_areCheckedSoNoValueCanBecomeMarkup() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Html(8).open("p onload=x"))
        .withMessage("not a tag or attribute name: p onload=x");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Html(8).empty("rect", "x\"", "1"))
        .withMessage("not a tag or attribute name: x\"");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Html(8).open("p", "lonely"))
        .withMessage("attributes come in name, value pairs: p");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Html(8).style("p{}</style><script>"))
        .withMessage("a style sheet must not contain </");
  }

  @Test
  void svgElements_closeThemselves_andCellsLeaveTheirEndTagImplied() {
    assertThat(new Html(8).empty("rect", "x", "1.0").cell("a").cell("b").toString())
        .isEqualTo("<rect x=\"1.0\"/><td>a<td>b");
  }
}

package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;

/**
 * The codec as a product of its own: a fresh Maven project that declares only {@code chunkcdm-codec} (from the release's
 * Maven tree) decodes every standalone Blosc1/Blosc2 chunk and every plain contiguous frame of the fixtures to the
 * expected bytes, and runs the example of codec/README.md as written.
 */
class CodecConsumerIT {
  @Test
  void aProjectDeclaringOnlyTheCodecDecodesTheBloscFixtures() throws Exception {
    Path work = Paths.get("target", "codec-consumer").toAbsolutePath();
    TestFiles.deleteTree(work);
    Files.createDirectories(work.resolve("src/test/java/org/example"));
    Files.createDirectories(work.resolve("target"));
    Files.writeString(work.resolve("pom.xml"), ConsumerProjectIT.resource("codec-consumer/pom.xml")
        .replace("@VERSION@", ConsumerProjectIT.VERSION)
        .replace("@JUNIT@", Test.class.getPackage().getImplementationVersion())
        .replace("@REPO@", ConsumerProjectIT.REPO.toUri().toString()));
    Files.writeString(work.resolve("src/test/java/org/example/CodecTest.java"),
        ConsumerProjectIT.resource("codec-consumer/src/test/java/org/example/CodecTest.java")
            .replace("    // README_EXAMPLE\n", readmeExample()));
    StringBuilder cases = new StringBuilder();
    int n = 0;
    for (Fixtures.Dataset d : Fixtures.manifest("blosc2").datasets("chunk-blosc1", "chunk-blosc2", "cframe")) {
      if (d.json().has("undefined_byte_ranges") || d.variables().get(0).json().has("undefined_byte_ranges")) {
        continue; // bytes c-blosc leaves undefined: compared masked by the codec's own tests
      }
      Path want = work.resolve("expected-" + n + ".bin");
      Files.write(want, d.variables().get(0).expected());
      cases.append(d.kind().equals("cframe") ? "frame." : "chunk.").append(n++).append('=')
          .append(d.file().toString().replace("\\", "/")).append('|').append(want.toString().replace("\\", "/")).append('\n');
    }
    Files.writeString(work.resolve("cases.properties"), cases.toString());
    // the README example's inputs
    Files.copy(Fixtures.family("blosc2").resolve("chunks/chunk_blosclz_shuffle_i4_multiblock.chunk"),
        work.resolve("data.blosc"));
    Files.copy(Fixtures.family("blosc2").resolve("b2nd/b2nd_3d_i2_cframe.b2nd"), work.resolve("array.b2nd"));

    ConsumerProjectIT.runConsumerBuild(work);
    String ok = Files.readString(work.resolve("target/codec-consumer-ok.txt"));
    assertTrue(ok.matches("\\d+ chunks \\d+ frames"), ok);
  }

  /** The java block of codec/README.md, indented as a method body. */
  static String readmeExample() throws Exception {
    String md = Files.readString(Fixtures.root().resolve("codec/README.md"));
    int at = md.indexOf("<!-- codec-example");
    assertTrue(at >= 0, "codec/README.md has no marked example");
    int start = md.indexOf("```java\n", at) + "```java\n".length();
    int end = md.indexOf("```", start);
    StringBuilder body = new StringBuilder();
    for (String line : md.substring(start, end).split("\n")) {
      body.append("    ").append(line).append('\n');
    }
    return body.toString();
  }
}

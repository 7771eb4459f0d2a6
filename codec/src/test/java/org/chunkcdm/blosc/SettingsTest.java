package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.chunkcdm.blosc.internal.Settings;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/** Every setting chunkcdm reads is in the one list, documented in docs/SETTINGS.md, and refused when wrong. */
class SettingsTest {
  @Test
  void everySettingIsDocumented() throws IOException {
    String doc = Files.readString(Fixtures.root().resolve("docs/SETTINGS.md"));
    for (Settings s : Settings.values()) {
      assertTrue(doc.contains("`" + s.property() + "`"), s.property() + " is not in docs/SETTINGS.md");
    }
  }

  /** No main source of any product module names a {@code chunkcdm.*} property outside the list. */
  @Test
  void noModuleReadsAnUnlistedProperty() throws IOException {
    List<String> listed = new ArrayList<>();
    for (Settings s : Settings.values()) {
      listed.add(s.property());
    }
    Pattern lit = Pattern.compile("\"(chunkcdm\\.[a-zA-Z][a-zA-Z0-9.]*)\"");
    TreeSet<String> unlisted = new TreeSet<>();
    List<Path> sources = new ArrayList<>();
    try (Stream<Path> modules = Files.list(Fixtures.root())) {
      for (Path m : (Iterable<Path>) modules::iterator) {
        if (Files.isDirectory(m.resolve("src/main/java"))) {
          try (Stream<Path> s = Files.walk(m.resolve("src/main/java"))) {
            s.forEach(sources::add);
          }
        }
      }
    }
    {
      for (Path f : sources) {
        String p = Fixtures.root().relativize(f).toString().replace('\\', '/');
        if (!p.endsWith(".java") || !p.contains("/src/main/") || p.startsWith("bench/") || p.startsWith("testkit/")
            || p.contains("/target/")) {
          continue;
        }
        Matcher m = lit.matcher(Files.readString(f));
        while (m.find()) {
          String name = m.group(1);
          if (!listed.contains(name) && !name.startsWith("chunkcdm.test.") && !name.startsWith("chunkcdm.bench.")
              && !name.equals("chunkcdm.path")) { // an ImageJ preference key, not a system property
            unlisted.add(p + ": " + name);
          }
        }
      }
    }
    assertEquals(new TreeSet<String>(), unlisted, "properties read outside org.chunkcdm.blosc.internal.Settings");
  }

  @Test
  void wrongValuesAndUnknownNamesAreRefusedNamingTheAllowedOnes() {
    String[][] cases = {
      {"chunkcdm.mmap", "sometimes", "-Dchunkcdm.mmap=sometimes is not a valid setting: use auto, true or false"},
      {"chunkcdm.decode.threads", "0", "-Dchunkcdm.decode.threads=0 is not a valid setting: use a whole number from 1 to 1024"},
      {"chunkcdm.cache.bytes", "64M", "-Dchunkcdm.cache.bytes=64M is not a valid setting: use a whole number from 0 to "},
      {"chunkcdm.typedPieces", "false", "-Dchunkcdm.typedPieces is not a chunkcdm setting: the settings are chunkcdm.blosc, "},
    };
    for (String[] c : cases) {
      String old = System.getProperty(c[0]);
      System.setProperty(c[0], c[1]);
      try {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Settings::checkAll, c[0]);
        assertTrue(e.getMessage().startsWith(c[2]), e.getMessage());
      } finally {
        if (old == null) {
          System.clearProperty(c[0]);
        } else {
          System.setProperty(c[0], old);
        }
      }
    }
    Settings.checkAll(); // this test JVM's own settings are all right
  }
}

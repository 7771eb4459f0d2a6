package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The menu entry class is Java 8 bytecode (so an old Java loads it and shows the "needs Java 17" message) and
 * parses Java versions of both styles; plugins.config puts it under File › Import.
 */
class EntryClassTest {
  @Test
  void entryClassIsJava8AndMenuIsDeclared() throws IOException {
    try (InputStream in = EntryClassTest.class.getResourceAsStream("Chunked_Dataset_Import.class")) {
      DataInputStream d = new DataInputStream(in);
      assertEquals(0xCAFEBABE, d.readInt());
      d.readUnsignedShort();
      assertEquals(52, d.readUnsignedShort(), "class file major version of Java 8");
    }
    try (InputStream in = EntryClassTest.class.getResourceAsStream("ImportCommand.class")) {
      DataInputStream d = new DataInputStream(in);
      d.readInt();
      d.readUnsignedShort();
      assertEquals(61, d.readUnsignedShort(), "the real command is Java 17");
    }
    try (InputStream in = EntryClassTest.class.getResourceAsStream("/plugins.config")) {
      String cfg = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(cfg.contains("File>Import, \"Chunked Dataset (chunkcdm)...\", org.chunkcdm.fiji.ij.Chunked_Dataset_Import"), cfg);
    }
  }

  @Test
  void javaVersionParsing() {
    String old = System.getProperty("java.specification.version");
    try {
      System.setProperty("java.specification.version", "1.8");
      assertEquals(8, Chunked_Dataset_Import.javaVersion());
      System.setProperty("java.specification.version", "11");
      assertEquals(11, Chunked_Dataset_Import.javaVersion());
      System.setProperty("java.specification.version", "21");
      assertEquals(21, Chunked_Dataset_Import.javaVersion());
    } finally {
      System.setProperty("java.specification.version", old);
    }
    assertTrue(Chunked_Dataset_Import.javaVersion() >= 17);
  }
}
